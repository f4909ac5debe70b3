import { DynamoTaskStore } from "../../lib/store/dynamodb/taskStore";
import { MemoryTaskStore } from "../../lib/store/memory/taskStore";
import type { TaskStore } from "../../lib/tasks/taskStore";
import { freshTable, testDocumentClient } from "../support/dynamoTables";

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
