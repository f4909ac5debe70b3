import { BatchGetCommand, type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { ConflictError, PayloadTooLargeError } from "../../errors";

/** A conditional write lost (ConditionalCheckFailedException). */
export const isConditionFailure = (error: unknown): boolean => (error as Error)?.name === "ConditionalCheckFailedException";

/** Awaits a conditional write: true when it was written, false when its condition failed; other errors propagate. */
export async function conditionally(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A transaction was cancelled; `reasons[i]` says why item i failed ("ConditionalCheckFailed", "None", ...). */
export function transactionReasons(error: unknown): string[] | undefined {
  if ((error as Error)?.name !== "TransactionCanceledException") return undefined;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((reason) => reason.Code ?? "None");
}

/** DynamoDB refuses items over 400 KB; a client sent a record that large. */
export function rethrowItemTooLarge(error: unknown): never {
  const message = (error as Error)?.message ?? "";
  if ((error as Error)?.name === "ValidationException" && /item size|size has exceeded/i.test(message)) {
    throw new PayloadTooLargeError("The record is larger than the store accepts (400 KB)");
  }
  throw error;
}

/**
 * Optimistic concurrency: runs `attempt` until it returns a value, up to `attempts` times, with
 * a short random back-off between tries. `attempt` answers undefined to ask for another try.
 */
export async function retry<T>(attempts: number, attempt: (n: number) => Promise<T | typeof RETRY>): Promise<T> {
  for (let n = 0; n < attempts; n += 1) {
    const result = await attempt(n);
    if (result !== RETRY) return result as T;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 5 * 2 ** n)));
  }
  throw new ConflictError(`The record changed under ${attempts} concurrent writes in a row; try again`);
}
export const RETRY: unique symbol = Symbol("retry");

/** Every item of a query, following LastEvaluatedKey. */
export async function queryAll<T>(client: DynamoDBDocumentClient, input: QueryCommandInput): Promise<T[]> {
  const items: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    items.push(...((page.Items ?? []) as T[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every item under one partition key, strongly consistent; `projection` names the attributes wanted (all: none). */
export const itemsUnder = <T>(client: DynamoDBDocumentClient, table: string, pk: string, projection?: string): Promise<T[]> =>
  queryAll<T>(client, {
    TableName: table,
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": pk },
    ConsistentRead: true,
    ...(projection && { ProjectionExpression: projection }),
  });

/** DynamoDB's most keys per BatchGetItem call. */
export const BATCH_GET_LIMIT = 100;

/** The items of up to 100 keys of one table (strongly consistent), asking again for any left unprocessed. */
export async function batchGetAll<T>(client: DynamoDBDocumentClient, table: string, keys: Record<string, unknown>[]): Promise<T[]> {
  const items: T[] = [];
  let pending = keys;
  for (let round = 0; pending.length > 0; round += 1) {
    if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(200, 10 * 2 ** round)));
    const answer = await client.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }));
    items.push(...((answer.Responses?.[table] ?? []) as T[]));
    pending = (answer.UnprocessedKeys?.[table]?.Keys ?? []) as Record<string, unknown>[];
  }
  return items;
}
