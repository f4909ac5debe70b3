import { Budget, type BudgetLimits } from "../store/budget";
import { taskFootprint, type NewTask, type Task, type TaskPatch } from "./task";
import type { TaskStore } from "./taskStore";

/**
 * Tasks in this container's memory. Ids grow with creation order, so the Map's insertion order is
 * creation order and the last stored task is the one with the highest id. Every operation but
 * `list` is O(1) (deleting the last task walks down to the next live id: amortised O(1), since
 * each id is walked past at most once per time it is created).
 */
export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<number, Task>();
  private lastId = 0;
  private readonly budget: Budget;

  constructor(limits: BudgetLimits) {
    this.budget = new Budget(limits);
  }

  async list(): Promise<Task[]> {
    return Array.from(this.tasks.values(), copy);
  }

  async get(id: number): Promise<Task | undefined> {
    const task = this.tasks.get(id);
    return task && copy(task);
  }

  async create(fields: NewTask): Promise<Task> {
    this.budget.reserve(1, taskFootprint(fields), "task");
    const task: Task = { id: this.lastId + 1, title: fields.title, description: fields.description, done: false };
    this.tasks.set(task.id, task);
    this.lastId = task.id;
    return copy(task);
  }

  async update(id: number, patch: TaskPatch): Promise<Task | undefined> {
    const task = this.tasks.get(id);
    if (!task) return undefined;
    const next: Task = { ...task, ...patch, id };
    const growth = taskFootprint(next) - taskFootprint(task);
    this.budget.reserve(0, growth, "task");
    this.tasks.set(id, next);
    return copy(next);
  }

  async delete(id: number): Promise<boolean> {
    const task = this.tasks.get(id);
    if (!task) return false;
    this.tasks.delete(id);
    this.budget.release(1, taskFootprint(task));
    while (this.lastId > 0 && !this.tasks.has(this.lastId)) this.lastId -= 1;
    return true;
  }
}

const copy = (task: Task): Task => ({ id: task.id, title: task.title, description: task.description, done: task.done });
