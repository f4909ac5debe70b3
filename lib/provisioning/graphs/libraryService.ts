import { NotFoundError } from "../../errors";
import type { StoresOf } from "../ports";
import { assertRecordFits, fitsKey } from "../recordSize";
import { redact } from "../secrets";
import type { Stored } from "./definitionStore";
import { GRAPH_LIBRARY, graphDefinition } from "./graphLibrary";
import type { GraphDefinition, LibraryTask } from "./graphTypes";
import { builtInTask, TASK_LIBRARY, type TaskFinder } from "./taskDefinitions";
import { checkTaskFields, validateGraph } from "./validateGraph";

/**
 * The graph and task libraries: the built-in definitions and the ones users define. A user's
 * definition of a built-in name wins (RackHD's PUT replaced it, until the next restart there).
 */

/** The graph of that name, or undefined. */
export async function findGraph(stores: StoresOf<"definitions">, name: string): Promise<GraphDefinition | undefined> {
  return (fitsKey(name) ? await stores.definitions.graph(name) : undefined) ?? graphDefinition(name);
}

/** Finds tasks in the whole library (one read of the user's tasks). */
export async function taskFinder(stores: StoresOf<"definitions">): Promise<TaskFinder> {
  const defined = new Map((await stores.definitions.tasks()).map((task) => [task.injectableName, task]));
  return (name) => defined.get(name) ?? builtInTask(name);
}

const overlay = <T extends { injectableName: string }>(builtIn: readonly T[], defined: T[]): T[] => {
  const names = new Set(defined.map((item) => item.injectableName));
  return [...builtIn.filter((item) => !names.has(item.injectableName)), ...defined];
};

/** GET /workflows/library: the built-in graphs, then the users' in name order. */
export async function graphLibrary(stores: StoresOf<"definitions">): Promise<GraphDefinition[]> {
  return overlay(GRAPH_LIBRARY, await stores.definitions.graphs());
}

export async function graphLibraryEntry(stores: StoresOf<"definitions">, name: string): Promise<GraphDefinition> {
  const graph = await findGraph(stores, name);
  if (!graph) throw new NotFoundError(`Could not find graph definition for ${name}`);
  return graph;
}

/** GET /workflows/tasks/library: the task definitions graphs are built from, secrets redacted. */
export async function taskLibrary(stores: StoresOf<"definitions">): Promise<LibraryTask[]> {
  return overlay(TASK_LIBRARY, await stores.definitions.tasks()).map(redact);
}

/** PUT /workflows: checked as RackHD era B/C checks a graph (400 with its text), then stored. */
export async function defineGraph(stores: StoresOf<"definitions">, body: Record<string, unknown>, now: Date): Promise<string> {
  const graph = validateGraph(body, await taskFinder(stores));
  assertRecordFits(graph, "graph definition");
  await stores.definitions.putGraph(graph, now);
  return graph.injectableName;
}

/**
 * PUT /workflows/tasks: the five fields are required (RackHD B/C); the base task need not exist
 * yet (FIT defines one implementing `im_1`): a graph that uses the task is refused instead.
 */
export async function defineTask(stores: StoresOf<"definitions">, body: unknown, now: Date): Promise<Stored<LibraryTask>> {
  checkTaskFields(body);
  // The five fields only: the library answers nothing else (RackHD's model kept no other key).
  const { friendlyName, injectableName, implementsTask, options, properties } = body;
  const task = { friendlyName, injectableName, implementsTask, options: options ?? {}, properties };
  assertRecordFits(task, "task definition");
  return stores.definitions.putTask(task, now);
}
