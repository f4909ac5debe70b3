import { ValidationError } from "../../errors";
import { deepMerge, isPlainObject } from "../../json";
import { baseTask } from "./baseTasks";
import type { LibraryTask } from "./graphTypes";
import { type GraphDefinition, type GraphTaskEntry, labelOf } from "./graphTypes";
import { mergeGraphOptions, resolveTaskOptions } from "./options";
import { entryTask, type TaskFinder } from "./taskDefinitions";

function fail(message: string): never {
  throw new ValidationError(message);
}

const TASK_FIELDS = [
  ["friendlyName", "string"],
  ["injectableName", "string"],
  ["implementsTask", "string"],
  ["options", "object"],
  ["properties", "object"],
] as const;

/**
 * The model check RackHD's task definitions pass (all five fields), with its texts. RackHD stored
 * a task's options without looking into them, and the bosh CPI defines tasks with
 * `"options": null`: null options pass (the caller stores them as `{}`).
 */
export function checkTaskFields(task: unknown): asserts task is Omit<LibraryTask, "options"> & { options: LibraryTask["options"] | null } {
  if (!isPlainObject(task)) fail("taskDefinition (object) is required");
  const fields = task as Record<string, unknown>;
  for (const [field, type] of TASK_FIELDS) {
    const value = fields[field];
    const ok =
      type === "object" ? isPlainObject(value) || (field === "options" && value === null) : typeof value === "string" && value !== "";
    if (!ok) fail(`${field} (${type}) is required`);
  }
}

/**
 * A graph definition checked as RackHD era B/C checks one before storing it (on-core
 * `task-graph.js`, part 2 §1.2), with its texts: the fields, unique labels, every task known (by
 * name or inline) with a known base task, `waitOn` naming labels of the graph and no cycle,
 * every required option resolvable from the graph's own options, and every required property
 * supplied by an earlier task. Answers the definition as stored; throws ValidationError (400).
 * Where RackHD's text does not name an unknown task (`taskDefinition (object) is required`),
 * this one adds the name, so a client knows which.
 */
export function validateGraph(body: Record<string, unknown>, tasks: TaskFinder): GraphDefinition {
  const { injectableName, friendlyName, options = {}, tasks: entries } = body;
  if (typeof injectableName !== "string" || injectableName === "") fail("injectableName (string) is required");
  if (typeof friendlyName !== "string" || friendlyName === "") fail("friendlyName (string) is required");
  if (!isPlainObject(options)) fail("options (object) is required");
  if (!Array.isArray(entries) || !entries.every(isPlainObject)) fail("Graph.tasks ([object]) is required");
  const graph = { ...body, injectableName, friendlyName, options, tasks: entries } as GraphDefinition;

  const labels = new Set<string>();
  for (const entry of graph.tasks) {
    const label = labelOf(entry);
    if (labels.has(label)) fail(`The task label '${label}' is used more than once in the graph definition.`);
    labels.add(label);
  }
  for (const entry of graph.tasks) checkEntry(entry, tasks);
  checkWaits(graph.tasks, labels);
  checkOptionsAndProperties(graph, tasks);
  return graph;
}

function checkEntry(entry: GraphTaskEntry, tasks: TaskFinder): void {
  if (entry.taskName === undefined && entry.taskDefinition === undefined) {
    fail("All TaskGraph tasks should have either a taskName or taskDefinition property.");
  }
  if (entry.waitOn !== undefined && !isPlainObject(entry.waitOn)) fail("waitOn (object) must map labels to states");
  if (entry.optionOverrides !== undefined && !isPlainObject(entry.optionOverrides)) fail("optionOverrides (object) must be an object");
  if (entry.ignoreFailure !== undefined && typeof entry.ignoreFailure !== "boolean") fail("ignoreFailure (boolean) must be a boolean");
  if (entry.taskDefinition !== undefined) checkTaskFields(entry.taskDefinition);
  else if (typeof entry.taskName !== "string") fail("taskName (string) must be a string");
  const definition = entry.taskDefinition ?? (entry.taskName !== undefined ? tasks(entry.taskName) : undefined);
  if (!definition) fail(`taskDefinition (object) is required: no task named ${entry.taskName} in the library`);
  if (!baseTask(definition.implementsTask)) fail(`Base task definition for ${definition.implementsTask} should exist`);
}

const WAIT_STATES = new Set(["succeeded", "failed", "timeout", "cancelled", "finished"]);

function checkWaits(entries: GraphTaskEntry[], labels: Set<string>): void {
  for (const entry of entries) {
    for (const [label, state] of Object.entries(entry.waitOn ?? {})) {
      if (!labels.has(label)) fail(`Task to wait on does not exist: ${label}`);
      if (typeof state !== "string" || !WAIT_STATES.has(state)) {
        fail(`Task ${labelOf(entry)} waits on ${label} to be ${String(state)}: one of ${[...WAIT_STATES].join(", ")}`);
      }
    }
  }
  // Depth-first search: a dependency met again while still on the path closes a cycle.
  const waits = new Map(entries.map((entry) => [labelOf(entry), Object.keys(entry.waitOn ?? {})]));
  const done = new Set<string>();
  const visit = (label: string, path: string[]): void => {
    if (done.has(label)) return;
    for (const next of waits.get(label) ?? []) {
      if (path.includes(next)) fail(`Detected a cyclic graph with tasks ${label} and ${next}`);
      visit(next, [...path, next]);
    }
    done.add(label);
  };
  for (const label of waits.keys()) visit(label, [label]);
}

/** Required options from the graph's own options; required properties from earlier tasks, in list order. */
function checkOptionsAndProperties(graph: GraphDefinition, tasks: TaskFinder): void {
  const graphOptions = mergeGraphOptions(graph, {});
  let supplied: Record<string, unknown> = {};
  for (const entry of graph.tasks) {
    const definition = entryTask(entry, tasks)!;
    resolveTaskOptions(graph, entry, definition, graphOptions);
    for (const [path, wanted] of Object.entries(definition.requiredProperties)) {
      if (valueAt(supplied, path) !== wanted) {
        fail(`expected property ${path} to be supplied for task ${definition.injectableName} in graph ${graph.injectableName}`);
      }
    }
    supplied = deepMerge(supplied, definition.properties) as Record<string, unknown>;
  }
}

const valueAt = (value: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((at, key) => (isPlainObject(at) ? at[key] : undefined), value);
