import { runGuarded } from "../../lib/idempotency/guard";
import type { IdempotencyStore } from "../../lib/idempotency/idempotencyStore";
import { DynamoIdempotencyStore } from "../../lib/store/dynamodb/idempotencyStore";
import { DynamoTaskStore } from "../../lib/store/dynamodb/taskStore";
import { MemoryIdempotencyStore } from "../../lib/store/memory/idempotencyStore";
import { freshTable, testDocumentClient } from "../support/dynamoTables";

const LOCK_SECONDS = 20;
const t0 = new Date("2026-11-23T00:00:00.000Z");
const later = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const answer = { statusCode: 201, headers: { "content-type": "application/json" }, body: '{"task":{"id":1}}' };

const adapters: [string, () => Promise<IdempotencyStore>][] = [
  ["memory", async () => new MemoryIdempotencyStore({ capacity: 1000, maxBytes: 1 << 20 }, LOCK_SECONDS * 1000)],
  ["dynamodb", async () => new DynamoIdempotencyStore(testDocumentClient(), await freshTable("idem"), LOCK_SECONDS)],
];

describe.each(adapters)("idempotency store contract: %s", (_name, makeStore) => {
  let store: IdempotencyStore;
  beforeEach(async () => {
    store = await makeStore();
  });

  it("lets the first request proceed and replays its answer to the same request", async () => {
    const first = await store.claim("k1", "body-a", t0);
    expect(first.kind).toBe("proceed");
    if (first.kind !== "proceed") return;
    await store.complete("k1", first.owner, answer, t0);
    expect(await store.claim("k1", "body-a", later(1))).toEqual({ kind: "replay", answer });
  });

  it("answers mismatch for another body, busy while the first runs, and frees a released key", async () => {
    const first = await store.claim("k2", "body-a", t0);
    expect(await store.claim("k2", "body-b", t0)).toEqual({ kind: "mismatch" });
    expect(await store.claim("k2", "body-a", later(5))).toEqual({ kind: "busy", retryAfterSeconds: LOCK_SECONDS - 5 });
    if (first.kind === "proceed") await store.release("k2", first.owner);
    expect((await store.claim("k2", "body-b", later(6))).kind).toBe("proceed");
  });

  it("lets a retry take over a claim whose lock ran out, and then ignores the old owner", async () => {
    const first = await store.claim("k3", "body-a", t0);
    const second = await store.claim("k3", "body-a", later(LOCK_SECONDS + 1));
    expect(second.kind).toBe("proceed");
    if (first.kind !== "proceed" || second.kind !== "proceed") return;
    await store.complete("k3", first.owner, { ...answer, body: "stale" }, later(LOCK_SECONDS + 2));
    await store.complete("k3", second.owner, answer, later(LOCK_SECONDS + 2));
    expect(await store.claim("k3", "body-a", later(LOCK_SECONDS + 3))).toEqual({ kind: "replay", answer });
  });

  it("forgets a key after a day", async () => {
    const first = await store.claim("k4", "body-a", t0);
    if (first.kind === "proceed") await store.complete("k4", first.owner, answer, t0);
    expect((await store.claim("k4", "body-b", later(24 * 3600 + 1))).kind).toBe("proceed");
  });
});

describe("the DynamoDB guard: a request taken over cannot land late", () => {
  it("refuses the old owner's create once a retry owns the key, and stores nothing for it", async () => {
    const table = await freshTable("guard");
    const client = testDocumentClient();
    const keys = new DynamoIdempotencyStore(client, table, LOCK_SECONDS);
    const tasks = new DynamoTaskStore(client, table);
    const first = await keys.claim("k", "body", t0);
    const second = await keys.claim("k", "body", later(LOCK_SECONDS + 1));
    if (first.kind !== "proceed" || second.kind !== "proceed") throw new Error("expected two claims");

    const late = runGuarded({ key: "k", owner: first.owner, spent: false }, () => tasks.create({ title: "late", description: "" }));
    await expect(late).rejects.toHaveProperty("kind", "conflict");
    const retried = await runGuarded({ key: "k", owner: second.owner, spent: false }, () =>
      tasks.create({ title: "retry", description: "" }),
    );

    expect((await tasks.list()).map((task) => task.title)).toEqual(["retry"]);
    expect(retried.title).toBe("retry");
    // The change is recorded on the key with it: a retry now hears "lost" rather than running again.
    expect(await keys.claim("k", "body", later(LOCK_SECONDS * 3))).toEqual({ kind: "lost" });
  });
});
