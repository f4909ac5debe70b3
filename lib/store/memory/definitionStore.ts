import type { DefinitionStore, Stored } from "../../provisioning/graphs/definitionStore";
import type { GraphDefinition, LibraryTask } from "../../provisioning/graphs/graphTypes";
import { Budget, type BudgetLimits } from "./budget";
import { deepFreeze } from "./deepFreeze";

/** One kind of definition, by injectableName, bounded by its own budget. */
class Definitions<T> {
  private readonly records = new Map<string, Stored<T>>();
  private readonly sizes = new Map<string, number>();
  private readonly budget: Budget;

  constructor(
    limits: BudgetLimits,
    private readonly what: string,
  ) {
    this.budget = new Budget(limits);
  }

  put(name: string, definition: T, now: Date): Stored<T> {
    const before = this.records.get(name);
    const stamp = now.toISOString();
    const record = deepFreeze({ definition: structuredClone(definition), createdAt: before?.createdAt ?? stamp, updatedAt: stamp });
    const size = 2 * JSON.stringify(record).length + 128;
    this.budget.reserve(before ? 0 : 1, size - (this.sizes.get(name) ?? 0), this.what);
    this.sizes.set(name, size);
    this.records.set(name, record);
    return record;
  }

  get(name: string): T | undefined {
    return this.records.get(name)?.definition;
  }

  all(): T[] {
    return [...this.records.keys()].sort().map((name) => this.records.get(name)!.definition);
  }
}

/** User-defined graphs and tasks in this container's memory. */
export class MemoryDefinitionStore implements DefinitionStore {
  private readonly graphDefinitions: Definitions<GraphDefinition>;
  private readonly taskDefinitions: Definitions<LibraryTask>;

  constructor(limits: BudgetLimits) {
    this.graphDefinitions = new Definitions(limits, "graph definition");
    this.taskDefinitions = new Definitions(limits, "task definition");
  }

  async putGraph(graph: GraphDefinition, now: Date): Promise<Stored<GraphDefinition>> {
    return this.graphDefinitions.put(graph.injectableName, graph, now);
  }

  async putTask(task: LibraryTask, now: Date): Promise<Stored<LibraryTask>> {
    return this.taskDefinitions.put(task.injectableName, task, now);
  }

  async graph(name: string): Promise<GraphDefinition | undefined> {
    return this.graphDefinitions.get(name);
  }

  async task(name: string): Promise<LibraryTask | undefined> {
    return this.taskDefinitions.get(name);
  }

  async graphs(): Promise<GraphDefinition[]> {
    return this.graphDefinitions.all();
  }

  async tasks(): Promise<LibraryTask[]> {
    return this.taskDefinitions.all();
  }
}
