import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ConflictError } from "../../errors";
import { pendingGuard } from "../../idempotency/guard";
import { conditionally, transactionReasons } from "./conditions";
import { IDEMPOTENCY } from "./idempotencyStore";

/** One item of a TransactWriteItems call. */
export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]["TransactItems"]>[number];

/**
 * Writes the items together, with the request's idempotency guard when it has one (the key goes
 * `written` in the same transaction, on the condition that the request still owns it: see
 * lib/idempotency). One item without a guard is a plain conditional write (half the write units of
 * a one-item transaction); its failed condition is reported as a cancelled transaction would be.
 * A guard that fails means a retry took the request over: its change is not written.
 */
export async function writeTogether(client: DynamoDBDocumentClient, table: string, items: TransactItem[]): Promise<void> {
  const guard = pendingGuard();
  if (!guard && items.length === 1) {
    const [{ Put, Delete }] = items;
    if (await conditionally(Put ? client.send(new PutCommand(Put)) : client.send(new DeleteCommand(Delete!)))) return;
    throw Object.assign(new Error("The condition failed"), {
      name: "TransactionCanceledException",
      CancellationReasons: [{ Code: "ConditionalCheckFailed" }],
    });
  }
  const guardItem: TransactItem[] = guard
    ? [
        {
          Update: {
            TableName: table,
            Key: { pk: IDEMPOTENCY, sk: guard.key },
            UpdateExpression: "SET #state = :written",
            ConditionExpression: "#owner = :owner AND #state = :pending",
            ExpressionAttributeNames: { "#state": "state", "#owner": "owner" },
            ExpressionAttributeValues: { ":written": "written", ":owner": guard.owner, ":pending": "pending" },
          },
        },
      ]
    : [];
  try {
    await client.send(new TransactWriteCommand({ TransactItems: [...items, ...guardItem] }));
  } catch (error) {
    if (guard && transactionReasons(error)?.[items.length] === "ConditionalCheckFailed") {
      throw new ConflictError("A retry with the same Idempotency-Key took this request over; it changed nothing");
    }
    throw error;
  }
  if (guard) guard.spent = true;
}
