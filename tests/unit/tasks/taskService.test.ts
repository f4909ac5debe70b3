import { NotFoundError, ValidationError } from "../../../lib/errors";
import { MemoryTaskStore } from "../../../lib/store/memory/taskStore";
import { createTask, deleteTask, getTask, listTasks, updateTask } from "../../../lib/tasks/taskService";

const newStore = () => new MemoryTaskStore({ capacity: 100, maxBytes: 1 << 20 });

describe("task use cases", () => {
  it("creates, reads, lists, updates and deletes", async () => {
    const store = newStore();
    const task = await createTask(store, { title: "Learn Python", description: "tutorial" });
    expect(task).toEqual({ id: 1, title: "Learn Python", description: "tutorial", done: false });
    expect(await getTask(store, 1)).toEqual(task);
    expect(await updateTask(store, 1, async () => ({ done: true }))).toEqual({ ...task, done: true });
    expect(await listTasks(store)).toEqual([{ ...task, done: true }]);
    await deleteTask(store, 1);
    await expect(getTask(store, 1)).rejects.toThrow(NotFoundError);
  });

  it("answers not found on update before reading the body", async () => {
    const store = newStore();
    const readBody = jest.fn(async () => ({ title: "never read" }));
    await expect(updateTask(store, 42, readBody)).rejects.toThrow(NotFoundError);
    expect(readBody).not.toHaveBeenCalled();
  });

  it("changes nothing when reading the update body fails (a rejected body)", async () => {
    const store = newStore();
    await createTask(store, { title: "a" });
    await expect(
      updateTask(store, 1, async () => {
        throw new ValidationError("done must be a boolean");
      }),
    ).rejects.toThrow(ValidationError);
    expect(await getTask(store, 1)).toEqual({ id: 1, title: "a", description: "", done: false });
  });

  it("changes only the patchable fields of the body", async () => {
    const store = newStore();
    await createTask(store, { title: "a" });
    const body = { done: true, id: 9, title: "b" } as { done: boolean; title: string };
    expect(await updateTask(store, 1, async () => body)).toEqual({ id: 1, title: "b", description: "", done: true });
  });

  it("propagates a body-reading failure as is", async () => {
    const store = newStore();
    await createTask(store, { title: "a" });
    await expect(
      updateTask(store, 1, async () => {
        throw new ValidationError("bad json");
      }),
    ).rejects.toThrow("bad json");
  });

  it("answers not found when deleting a missing task", async () => {
    await expect(deleteTask(newStore(), 3)).rejects.toThrow(NotFoundError);
  });

  it('says "Not found" (the tutorial\'s error text) for a missing task, and for one deleted while its update was read', async () => {
    const store = newStore();
    await expect(getTask(store, 5)).rejects.toMatchObject({ kind: "not-found", message: "Not found" });
    await expect(deleteTask(store, 5)).rejects.toMatchObject({ kind: "not-found", message: "Not found" });
    await createTask(store, { title: "a" });
    const raced = updateTask(store, 1, async () => {
      await deleteTask(store, 1);
      return { done: true };
    });
    await expect(raced).rejects.toMatchObject({ kind: "not-found", message: "Not found" });
  });
});
