import type { GraphDefinition, LibraryTask } from "./graphTypes";

/** A definition as stored: the document, with when it was first and last written. */
export interface Stored<T> {
  definition: T;
  createdAt: string;
  updatedAt: string;
}

/** The graphs and tasks users define (PUT /workflows, PUT /workflows/tasks), kept by injectableName. */
export interface DefinitionStore {
  /** Creates or replaces; answers the stored record (createdAt kept from the first write). */
  putGraph(graph: GraphDefinition, now: Date): Promise<Stored<GraphDefinition>>;
  putTask(task: LibraryTask, now: Date): Promise<Stored<LibraryTask>>;
  graph(name: string): Promise<GraphDefinition | undefined>;
  task(name: string): Promise<LibraryTask | undefined>;
  /** Every user graph, in name order. */
  graphs(): Promise<GraphDefinition[]>;
  /** Every user task, in name order. */
  tasks(): Promise<LibraryTask[]>;
}
