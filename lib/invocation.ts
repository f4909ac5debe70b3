import { AsyncLocalStorage } from "node:async_hooks";
import type { DataAccess } from "./dataAccess";
import type { NodeSites } from "./provisioning/relays/siteScope";

/**
 * The function being run, for everything its work does however deep: its name and what it may
 * do with the data (lib/dataAccess.ts), the fields every log line of it carries (the request and
 * correlation ids, the node and workflow it is about: lib/logger.ts), and the metrics it counts
 * (lib/metrics.ts, written once when it ends).
 */
export interface Invocation {
  readonly function: string;
  readonly access: DataAccess;
  readonly fields: Record<string, string>;
  readonly counts: Map<string, number>;
  /**
   * The machines its caller may act on and know of, when its grants are on named sites (issue 55,
   * set by the auth middleware): the node store narrows itself to them (lib/store/compositionRoot.ts).
   */
  nodeSites?: NodeSites;
}

// One per process: serverless offline runs every function in one process, side by side.
const current = new AsyncLocalStorage<Invocation>();

/** A new invocation of `fn`, with these log fields to start with. */
export const invocationOf = (fn: string, access: DataAccess, fields: Record<string, string> = {}): Invocation => ({
  function: fn,
  access,
  fields: { function: fn, ...fields },
  counts: new Map(),
});

/** Runs `work` as `invocation`: every store call and log line it makes knows whose it is. */
export const runAs = <T>(invocation: Invocation, work: () => T): T => current.run(invocation, work);

/** The function whose work this is, if any (a test calling a domain service directly has none). */
export const currentInvocation = (): Invocation | undefined => current.getStore();

/** Adds fields to every later log line of this invocation; a field already set keeps its value (the first node a request is about is the one it is about). */
export function annotate(fields: Record<string, string | undefined>): void {
  const invocation = current.getStore();
  if (!invocation) return;
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined && !(name in invocation.fields)) invocation.fields[name] = value;
}

/** Counts a metric of this invocation (lib/metrics.ts writes it when the invocation ends). */
export function count(metric: string, value = 1): void {
  const invocation = current.getStore();
  if (invocation) invocation.counts.set(metric, (invocation.counts.get(metric) ?? 0) + value);
}
