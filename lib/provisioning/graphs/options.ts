import { ValidationError } from "../../errors";
import { deepMerge, isPlainObject, UNSAFE_KEYS } from "../../json";
import type { GraphDefinition, GraphTaskEntry, TaskDefinition } from "./graphTypes";
import { labelOf } from "./graphTypes";

/** The graph's options with the request's merged over them. */
export function mergeGraphOptions(graph: GraphDefinition, requested: Record<string, unknown>): Record<string, unknown> {
  return deepMerge(graph.options, requested) as Record<string, unknown>;
}

/**
 * One task's options (RackHD §5.2): for every key the task declares, every required key and every
 * key given under the task's label, the label's value wins over `options.defaults`, which wins
 * over the task definition's default (with the entry's `optionOverrides` merged over it).
 * `defaults` reach only keys the task declares.
 */
export function resolveTaskOptions(
  graph: GraphDefinition,
  entry: GraphTaskEntry,
  definition: TaskDefinition,
  graphOptions: Record<string, unknown>,
): Record<string, unknown> {
  const label = labelOf(entry);
  const forLabel = isPlainObject(graphOptions[label]) ? (graphOptions[label] as Record<string, unknown>) : {};
  const defaults = isPlainObject(graphOptions.defaults) ? graphOptions.defaults : {};
  const own = deepMerge(definition.options, entry.optionOverrides) as Record<string, unknown>;
  const keys = new Set([...Object.keys(own), ...definition.requiredOptions, ...Object.keys(forLabel)]);
  const resolved: Record<string, unknown> = {};
  for (const key of keys) {
    if (UNSAFE_KEYS.has(key)) continue;
    if (forLabel[key] !== undefined) resolved[key] = forLabel[key];
    else if (defaults[key] !== undefined && key in own) resolved[key] = defaults[key];
    else if (own[key] !== undefined) resolved[key] = own[key];
  }
  for (const key of definition.requiredOptions) {
    if (!resolved[key]) {
      throw new ValidationError(`required option ${key} for task ${definition.injectableName} in graph ${graph.injectableName}`);
    }
  }
  return resolved;
}
