import { DeleteTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { DynamoTaskStore } from "../../lib/store/dynamodb/taskStore";
import { MemoryTaskStore } from "../../lib/store/memory/taskStore";
import type { TaskStore } from "../../lib/tasks/taskStore";
import { freshTable, testDocumentClient, testEndpoint } from "../support/dynamoTables";

/** The same behaviour, asked of every TaskStore adapter. */
const adapters: [string, () => Promise<TaskStore>][] = [
  ["memory", async () => new MemoryTaskStore({ capacity: 10_000, maxBytes: 1 << 26 })],
  ["dynamodb", async () => new DynamoTaskStore(testDocumentClient(), await freshTable("tasks"))],
];

describe.each(adapters)("TaskStore contract: %s", (_name, makeStore) => {
  let store: TaskStore;
  beforeEach(async () => {
    store = await makeStore();
  });
  const create = (title: string) => store.create({ title, description: "" });

  it("starts empty and gives id 1, then last + 1", async () => {
    expect(await store.list()).toEqual([]);
    expect(await create("a")).toEqual({ id: 1, title: "a", description: "", done: false });
    expect((await create("b")).id).toBe(2);
    expect((await create("c")).id).toBe(3);
  });

  it("lists in creation order", async () => {
    for (const title of ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]) await create(title);
    expect((await store.list()).map((task) => task.title)).toEqual(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]);
  });

  it("reuses the id of a deleted last task, never a middle one, and restarts at 1 when emptied", async () => {
    for (const title of ["a", "b", "c"]) await create(title);
    await store.delete(2);
    expect((await create("d")).id).toBe(4);
    await store.delete(4);
    expect((await create("e")).id).toBe(4);
    await store.delete(4);
    await store.delete(3);
    expect((await create("f")).id).toBe(2);
    await store.delete(1);
    await store.delete(2);
    expect((await create("g")).id).toBe(1);
  });

  it("gets, updates only the patched fields, and reports missing tasks", async () => {
    await store.create({ title: "a", description: "d" });
    expect(await store.get(1)).toEqual({ id: 1, title: "a", description: "d", done: false });
    expect(await store.get(2)).toBeUndefined();
    expect(await store.update(1, { done: true })).toEqual({ id: 1, title: "a", description: "d", done: true });
    expect(await store.update(1, { title: "b", description: "" })).toEqual({ id: 1, title: "b", description: "", done: true });
    expect(await store.update(1, {})).toEqual({ id: 1, title: "b", description: "", done: true });
    expect(await store.update(9, { done: true })).toBeUndefined();
    expect(await store.get(9)).toBeUndefined();
  });

  it("deletes once", async () => {
    await create("a");
    expect(await store.delete(1)).toBe(true);
    expect(await store.delete(1)).toBe(false);
    expect(await store.get(1)).toBeUndefined();
  });

  it("keeps text exactly (unicode, empty strings, long strings)", async () => {
    const title = "Grüße 🌍 \u0000 \u202e";
    const description = "x".repeat(50_000);
    await store.create({ title, description });
    expect(await store.get(1)).toEqual({ id: 1, title, description, done: false });
  });

  it("loses no concurrent update to another field", async () => {
    await create("a");
    await Promise.all([store.update(1, { title: "t" }), store.update(1, { description: "d" }), store.update(1, { done: true })]);
    expect(await store.get(1)).toEqual({ id: 1, title: "t", description: "d", done: true });
  });
});

/**
 * Issue 22 §11: a create that fails after taking its id (a 503 during a store fault) leaves the
 * seed's rule intact: the next task still gets the last stored id + 1. The client's Put of the
 * task fails as an unreachable store's does; the give-back is made then or, when the store is
 * still out of reach, before the next create.
 */
describe("DynamoDB task ids after failed creates", () => {
  /** The shared test client gets each test's fault for that test only. */
  const added: string[] = [];
  afterEach(() => {
    for (const name of added.splice(0)) testDocumentClient().middlewareStack.remove(name);
  });
  const nextName = () => {
    added.push(`fault${added.length}`);
    return added[added.length - 1];
  };
  const unreachable = () => Object.assign(new Error("connect ECONNREFUSED"), { name: "TimeoutError", $metadata: {} });

  /** A client whose next `failures` calls of the named commands fail, as during an outage. */
  function faultyClient(commands: string[], failures: { left: number }) {
    const client = testDocumentClient();
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (failures.left > 0 && commands.some((name) => (context.commandName ?? "").startsWith(name))) {
          failures.left -= 1;
          throw unreachable();
        }
        return next(args);
      },
      { step: "initialize", name: nextName() },
    );
    return client;
  }

  it("gives the id back at once when only the write failed: 12 failed creates, then the first task is id 1", async () => {
    const failures = { left: 12 };
    const store = new DynamoTaskStore(faultyClient(["Put"], failures), await freshTable("tasks"));
    for (let n = 0; n < 12; n += 1) await expect(store.create({ title: `t${n}`, description: "" })).rejects.toThrow("cannot be reached");
    expect((await store.create({ title: "first", description: "" })).id).toBe(1);
    expect((await store.create({ title: "second", description: "" })).id).toBe(2);
  });

  it("gives it back before the next create when the store was out of reach for that too", async () => {
    const failures = { left: 0 };
    const store = new DynamoTaskStore(faultyClient(["Put", "TransactWrite"], failures), await freshTable("tasks"));
    expect((await store.create({ title: "one", description: "" })).id).toBe(1);
    failures.left = 2; // the task's write and its give-back
    await expect(store.create({ title: "lost", description: "" })).rejects.toThrow("cannot be reached");
    expect((await store.create({ title: "two", description: "" })).id).toBe(2);
    expect((await store.list()).map((task) => task.id)).toEqual([1, 2]);
  });

  it("keeps an id whose write landed although the call failed (a time-out after the write)", async () => {
    const table = await freshTable("tasks");
    const client = testDocumentClient();
    let landedThenFailed = true;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (landedThenFailed && (context.commandName ?? "").startsWith("Put")) {
          landedThenFailed = false;
          throw unreachable();
        }
        return result;
      },
      { step: "initialize", name: nextName() },
    );
    const store = new DynamoTaskStore(client, table);
    await expect(store.create({ title: "landed", description: "" })).rejects.toThrow("cannot be reached");
    expect((await store.create({ title: "next", description: "" })).id).toBe(2);
    expect((await store.list()).map((task) => task.title)).toEqual(["landed", "next"]);
  });

  it("takes the next free id when the counter is behind the tasks (a late write landed, or the engine lost the counter's last ADD)", async () => {
    const table = await freshTable("tasks");
    const client = testDocumentClient();
    // Tasks 1 and 2 are stored and the counter still says 0: what a lost counter update leaves.
    for (const id of [1, 2]) {
      await client.send(
        new PutCommand({
          TableName: table,
          Item: { pk: "TASK", sk: String(id).padStart(16, "0"), id, title: `before-${id}`, description: "", done: false },
        }),
      );
    }
    const store = new DynamoTaskStore(client, table);
    expect((await store.create({ title: "next", description: "" })).id).toBe(3);
    expect((await store.create({ title: "after", description: "" })).id).toBe(4);
    expect((await store.list()).map((task) => [task.id, task.title])).toEqual([
      [1, "before-1"],
      [2, "before-2"],
      [3, "next"],
      [4, "after"],
    ]);
  });
});

describe("a local engine that lost its table (DynamoDB Local restarted in memory)", () => {
  it("answers the outage it is (503 with Retry-After), makes the table again, and the next request is served", async () => {
    const table = await freshTable("lost");
    const store = new DynamoTaskStore(testDocumentClient(), table);
    await store.create({ title: "before", description: "" });
    const admin = new DynamoDBClient({
      endpoint: testEndpoint(),
      region: "us-east-1",
      credentials: { accessKeyId: "local", secretAccessKey: "local" },
    });
    await admin.send(new DeleteTableCommand({ TableName: table }));
    admin.destroy();
    await expect(store.list()).rejects.toMatchObject({ kind: "unavailable", retryAfterSeconds: 5 });
    // Made again (empty: an engine in memory kept nothing), so the client's retry is served.
    expect(await store.list()).toEqual([]);
  }, 120_000);
});
