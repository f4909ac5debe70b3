import { randomUUID } from "node:crypto";
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { type Claim, type IdempotencyStore, KEY_TTL_SECONDS, type KeptAnswer } from "../../idempotency/idempotencyStore";
import { conditionally } from "./conditions";

/** Items `IDEMPOTENCY / <key>`; `expiresAt` (epoch seconds) is the table's TTL attribute. */
export const IDEMPOTENCY = "IDEMPOTENCY";

interface KeyItem {
  fingerprint: string;
  owner: string;
  state: "pending" | "written" | "done";
  answer?: string;
  lockUntil: number;
  expiresAt: number;
}

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

/**
 * Idempotency keys in DynamoDB (see lib/idempotency/idempotencyStore.ts). A claim is one
 * conditional put that succeeds when the key is new, expired (TTL deletes lazily) or a pending
 * claim whose lock ran out; otherwise one consistent read says what the key holds.
 */
export class DynamoIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly lockSeconds: number,
  ) {}

  async claim(key: string, fingerprint: string, now: Date): Promise<Claim> {
    const at = seconds(now);
    const owner = randomUUID();
    const claimed = await conditionally(
      this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            pk: IDEMPOTENCY,
            sk: key,
            fingerprint,
            owner,
            state: "pending",
            lockUntil: at + this.lockSeconds,
            expiresAt: at + KEY_TTL_SECONDS,
          },
          ConditionExpression:
            "attribute_not_exists(pk) OR expiresAt <= :now OR (#state = :pending AND lockUntil <= :now AND fingerprint = :fingerprint)",
          ExpressionAttributeNames: { "#state": "state" },
          ExpressionAttributeValues: { ":now": at, ":pending": "pending", ":fingerprint": fingerprint },
        }),
      ),
    );
    if (claimed) return { kind: "proceed", owner };
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.table, Key: { pk: IDEMPOTENCY, sk: key }, ConsistentRead: true }),
    );
    const item = Item as KeyItem | undefined;
    // Gone between the two calls (released, or expired and deleted): the client may simply retry.
    if (!item || item.expiresAt <= at) return { kind: "busy", retryAfterSeconds: 1 };
    if (item.fingerprint !== fingerprint) return { kind: "mismatch" };
    if (item.state === "done" && item.answer) return { kind: "replay", answer: JSON.parse(item.answer) as KeptAnswer };
    if (item.state === "written") return { kind: "lost" };
    return { kind: "busy", retryAfterSeconds: Math.max(1, item.lockUntil - at) };
  }

  async complete(key: string, owner: string, answer: KeptAnswer): Promise<void> {
    // A failed condition: taken over meanwhile, and the new owner's answer is the one to keep.
    await conditionally(
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: IDEMPOTENCY, sk: key },
          UpdateExpression: "SET #state = :done, answer = :answer",
          ConditionExpression: "#owner = :owner",
          ExpressionAttributeNames: { "#state": "state", "#owner": "owner" },
          ExpressionAttributeValues: { ":done": "done", ":answer": JSON.stringify(answer), ":owner": owner },
        }),
      ),
    );
  }

  async release(key: string, owner: string): Promise<void> {
    await conditionally(
      this.client.send(
        new DeleteCommand({
          TableName: this.table,
          Key: { pk: IDEMPOTENCY, sk: key },
          ConditionExpression: "#owner = :owner AND #state = :pending",
          ExpressionAttributeNames: { "#owner": "owner", "#state": "state" },
          ExpressionAttributeValues: { ":owner": owner, ":pending": "pending" },
        }),
      ),
    );
  }
}
