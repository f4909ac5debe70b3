import { CapacityError } from "../../../lib/errors";
import { MemoryTaskStore } from "../../../lib/store/memory/taskStore";

const roomy = () => new MemoryTaskStore({ capacity: 1000, maxBytes: 1 << 20 });

describe("MemoryTaskStore", () => {
  it("gives id 1 on an empty store and last + 1 after that", async () => {
    const store = roomy();
    expect((await store.create({ title: "a", description: "" })).id).toBe(1);
    expect((await store.create({ title: "b", description: "" })).id).toBe(2);
    expect((await store.create({ title: "c", description: "" })).id).toBe(3);
  });

  it("reuses the id of a deleted last task (the seed's rule) but never fills a middle gap", async () => {
    const store = roomy();
    for (const title of ["a", "b", "c"]) await store.create({ title, description: "" });
    await store.delete(2);
    expect((await store.create({ title: "d", description: "" })).id).toBe(4);
    await store.delete(4);
    expect((await store.create({ title: "e", description: "" })).id).toBe(4);
  });

  it("walks back past deleted ids when the last task goes, and restarts at 1 when empty", async () => {
    const store = roomy();
    for (const title of ["a", "b", "c"]) await store.create({ title, description: "" });
    await store.delete(2);
    await store.delete(3);
    expect((await store.create({ title: "d", description: "" })).id).toBe(2);
    await store.delete(1);
    await store.delete(2);
    expect((await store.create({ title: "e", description: "" })).id).toBe(1);
  });

  it("lists in creation order and creates with done false", async () => {
    const store = roomy();
    await store.create({ title: "a", description: "x" });
    await store.create({ title: "b", description: "y" });
    expect(await store.list()).toEqual([
      { id: 1, title: "a", description: "x", done: false },
      { id: 2, title: "b", description: "y", done: false },
    ]);
  });

  it("updates only the patched fields and reports a missing task", async () => {
    const store = roomy();
    await store.create({ title: "a", description: "x" });
    expect(await store.update(1, { done: true })).toEqual({ id: 1, title: "a", description: "x", done: true });
    expect(await store.update(9, { done: true })).toBeUndefined();
  });

  it("hands out copies: changing a returned task changes nothing stored", async () => {
    const store = roomy();
    const task = await store.create({ title: "a", description: "" });
    task.title = "changed";
    (await store.list())[0].done = true;
    expect(await store.get(1)).toEqual({ id: 1, title: "a", description: "", done: false });
  });

  it("refuses creates beyond its capacity and accepts them again after a delete", async () => {
    const store = new MemoryTaskStore({ capacity: 2, maxBytes: 1 << 20 });
    await store.create({ title: "a", description: "" });
    await store.create({ title: "b", description: "" });
    await expect(store.create({ title: "c", description: "" })).rejects.toThrow(CapacityError);
    expect(await store.list()).toHaveLength(2);
    await store.delete(1);
    await expect(store.create({ title: "c", description: "" })).resolves.toMatchObject({ id: 3 });
  });

  it("refuses a create or an update that would pass the byte budget, changing nothing", async () => {
    const store = new MemoryTaskStore({ capacity: 100, maxBytes: 1000 });
    await store.create({ title: "a", description: "" });
    await expect(store.create({ title: "x".repeat(1000), description: "" })).rejects.toThrow(CapacityError);
    await expect(store.update(1, { description: "y".repeat(1000) })).rejects.toThrow(CapacityError);
    expect(await store.get(1)).toEqual({ id: 1, title: "a", description: "", done: false });
    // Shrinking gives the room back.
    await store.update(1, { title: "b".repeat(200) });
    await store.update(1, { title: "b" });
    await expect(store.create({ title: "c".repeat(300), description: "" })).resolves.toMatchObject({ id: 2 });
  });
});
