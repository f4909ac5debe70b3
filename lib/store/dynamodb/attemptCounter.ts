import { BatchGetCommand, type DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ATTEMPT_WINDOW_SECONDS, type AttemptCounter } from "../../auth/attemptLimiter";

/**
 * Failed sign-ins counted in the table, shared by every container (issue 35 §9): one item
 * `AUTHFAIL#<key> / <window>` per key and window, an atomic ADD per failure, gone by TTL
 * (`expiresAt`) a window after it ends. Checking an attempt is one BatchGetItem of its two keys.
 */
export class DynamoAttemptCounter implements AttemptCounter {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async failures(keys: readonly string[], window: number): Promise<number[]> {
    const { Responses } = await this.client.send(
      new BatchGetCommand({
        RequestItems: { [this.table]: { Keys: keys.map((key) => this.keyOf(key, window)), ConsistentRead: true } },
      }),
    );
    const items = Responses?.[this.table] ?? [];
    return keys.map((key) => Number(items.find((item) => item.pk === partitionOf(key))?.failures ?? 0));
  }

  async fail(keys: readonly string[], window: number): Promise<void> {
    await Promise.all(
      keys.map((key) =>
        this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: this.keyOf(key, window),
            UpdateExpression: "ADD failures :one SET expiresAt = :expires",
            ExpressionAttributeValues: { ":one": 1, ":expires": window + 2 * ATTEMPT_WINDOW_SECONDS },
          }),
        ),
      ),
    );
  }

  private keyOf(key: string, window: number): { pk: string; sk: string } {
    return { pk: partitionOf(key), sk: String(window) };
  }
}

const partitionOf = (key: string): string => `AUTHFAIL#${key}`;
