import { ERASE_CATALOG } from "../graphs/lifecycleGraphs";
import { findNode } from "../nodes/findNode";
import type { StoresOf } from "../ports";
import type { Workflow, WorkflowFailure, WorkflowTask } from "../workflowEngine/workflow";
import { refreshWorkflow, type WorkflowStores } from "../workflows/workflowService";
import type { InstallReport } from "./installReport";
import { currentReport } from "./reportService";

/** One thing that happened, by the service's clock: what the machine did, or what became of its workflow. */
export interface TimelineEntry {
  at: string;
  source: "service" | "machine";
  what: string;
  task?: string;
  event?: { type: string; name: string; result?: string; description: string; origin?: string };
}

/** A log of the current install: its parts and size, and where to read it. */
export interface TimelineLog {
  name: string;
  parts: number;
  bytes: number;
  path: string;
}

export interface Timeline {
  node: string;
  instanceId?: string;
  workflow?: { id: string; name: string; injectableName: string; status: string; failure?: WorkflowFailure };
  entries: TimelineEntry[];
  /** Events the machine sent that were not kept (a full report keeps its first and its latest). */
  eventsDropped: number;
  logs: TimelineLog[];
}

const STEPS: readonly [keyof WorkflowTask, string][] = [
  ["startedAt", "task started"],
  ["bootedAt", "the machine booted the task's profile"],
  ["templateFetchedAt", "the machine fetched its install script"],
  ["installerStartedAt", "the installer started reporting"],
  ["installedAt", "the installer finished writing the system"],
  ["firstBootAt", "the installed system's first boot finished"],
];

/** The steps each task of the workflow records, and how each task ended. */
function workflowEntries(workflow: Workflow): TimelineEntry[] {
  const entries: TimelineEntry[] = [{ at: workflow.createdAt, source: "service", what: `workflow ${workflow.injectableName} started` }];
  for (const task of Object.values(workflow.tasks)) {
    for (const [field, what] of STEPS) {
      const at = task[field];
      if (typeof at === "string") entries.push({ at, source: field === "startedAt" ? "service" : "machine", what, task: task.label });
    }
    // The engine stamps finishedAt only as a task ends (workflows/progress.ts): no state check is needed beside it.
    if (task.finishedAt) {
      entries.push({
        at: task.finishedAt,
        source: "service",
        what: `task ${task.state}${task.error ? `: ${task.error}` : ""}`,
        task: task.label,
      });
    }
  }
  return entries;
}

const reportEntries = (report: InstallReport): TimelineEntry[] =>
  report.events.map((event) => ({
    at: event.at,
    source: "machine",
    what: `${event.type} ${event.name}${event.result ? ` ${event.result}` : ""}`,
    event: {
      type: event.type,
      name: event.name,
      description: event.description,
      ...(event.result && { result: event.result }),
      ...(event.origin && { origin: event.origin }),
    },
  }));

function logsOf(report: InstallReport | undefined, nodeId: string): TimelineLog[] {
  const byName = new Map<string, TimelineLog>();
  for (const chunk of report?.logs ?? []) {
    const log = byName.get(chunk.name) ?? { name: chunk.name, parts: 0, bytes: 0, path: `nodes/${nodeId}/install-logs/${chunk.name}` };
    byName.set(chunk.name, { ...log, parts: log.parts + 1, bytes: log.bytes + chunk.bytes });
  }
  return [...byName.values()];
}

/** The most disks of an erase report the timeline lists (a machine reports what it likes). */
const ERASE_ENTRIES_MAX = 64;

/**
 * A release's erase report (its `erase` catalog, lifecycle.sh), a line per disk: what was erased, how,
 * how much and how fast, or why not. Only the report written during this workflow counts; what
 * the machine sent is shown only as the strings and numbers it is, each bounded.
 */
function eraseEntries(workflow: Workflow, catalog: { createdAt: string; data: unknown } | undefined): TimelineEntry[] {
  if (workflow.lifecycle?.action !== "release" || !catalog || catalog.createdAt < workflow.createdAt || !Array.isArray(catalog.data))
    return [];
  const text = (value: unknown): string => (typeof value === "string" || typeof value === "number" ? String(value).slice(0, 200) : "?");
  return catalog.data.slice(0, ERASE_ENTRIES_MAX).map((disk: Record<string, unknown>) => ({
    at: catalog.createdAt,
    source: "machine" as const,
    task: "erase-disks",
    what:
      disk?.result === "erased"
        ? `erased ${text(disk.disk)} (${text(disk.mode)}, ${text(disk.method)}): ${text(disk.bytes)} bytes in ${text(disk.seconds)} s`
        : `could not erase ${text(disk?.disk)} (${text(disk?.mode)}): ${text(disk?.answer)}`,
  }));
}

/**
 * GET /nodes/{identifier}/timeline: what the node's machine did and when, for its latest workflow
 * (brought up to date, so a task past its time-out shows its reason) and its current install's
 * reports, oldest first, with the logs it uploaded.
 */
export async function nodeTimeline(
  stores: WorkflowStores & StoresOf<"installReports" | "instances">,
  identifier: string,
  now: Date,
): Promise<Timeline> {
  const node = await findNode(stores, identifier);
  const latest = (await stores.workflows.listForNode(node.id)).at(-1);
  const workflow = latest && (await refreshWorkflow(stores, latest, now));
  const report = await currentReport(stores, node, now);
  const erase = workflow?.lifecycle?.action === "release" ? await stores.catalogs.latest(node.id, ERASE_CATALOG) : undefined;
  const entries = [
    ...(workflow ? workflowEntries(workflow) : []),
    ...(workflow ? eraseEntries(workflow, erase) : []),
    ...(report ? reportEntries(report) : []),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return {
    node: node.id,
    ...(report && { instanceId: report.instanceId }),
    ...(workflow && {
      workflow: {
        id: workflow.id,
        name: workflow.name,
        injectableName: workflow.injectableName,
        status: workflow._status,
        ...(workflow.failure && { failure: workflow.failure }),
      },
    }),
    entries,
    eventsDropped: report?.eventsDropped ?? 0,
    logs: logsOf(report, node.id),
  };
}
