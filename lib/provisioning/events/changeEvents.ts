import type { Node } from "../nodes/node";
import type { RelayJob } from "../relays/job";
import { type RelayCredential, wasOffline } from "../relays/site";
import type { Workflow, WorkflowTask } from "../workflowEngine/workflow";
import type { EventDraft, Severity } from "./event";

/**
 * The events a change of a record makes, from the record before and after it (undefined: it did
 * not exist / no longer does). The stores call these in the write that makes the change, so an
 * event is recorded with its change or not at all (lib/store: the memory stores in the same step,
 * DynamoDB in the same transaction). Pure: a change that makes no event makes none.
 */

/** The node attributes whose changes are events (RackHD's `node.<attr>.assigned|updated|unassigned`). */
const NODE_ATTRIBUTES = ["sku", "obmSettings", "tags"] as const;
/** RackHD's names for them (its node model called the OBM list `obms`). */
const ATTRIBUTE_NAMES: Record<(typeof NODE_ATTRIBUTES)[number], string> = { sku: "sku", obmSettings: "obms", tags: "tags" };

const isEmpty = (value: unknown): boolean =>
  value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);

/** RackHD's rule (on-core `_getAttrAction`): assigned from empty, unassigned to empty, updated otherwise. */
export function attributeAction(before: unknown, after: unknown): "assigned" | "updated" | "unassigned" | undefined {
  if (isEmpty(before) && !isEmpty(after)) return "assigned";
  if (!isEmpty(before) && isEmpty(after)) return "unassigned";
  if (!isEmpty(before) && JSON.stringify(before) !== JSON.stringify(after)) return "updated";
  return undefined;
}

const nodeEvent = (node: Node, action: string, data: Record<string, unknown> = {}): EventDraft => ({
  type: "node",
  action,
  severity: "information",
  typeId: node.id,
  nodeId: node.id,
  data: { ...data, nodeType: node.type },
});

export function nodeChangeEvents(before: Node | undefined, after: Node | undefined): EventDraft[] {
  if (!before && after) return [nodeEvent(after, "added", { name: after.name })];
  if (before && !after) return [nodeEvent(before, "removed", { name: before.name })];
  if (!before || !after) return [];
  // A discovery found its BMC already another node's (obm/ipmiSettings.ts): the operator decides.
  const conflict: EventDraft[] =
    after.obmConflict && JSON.stringify(after.obmConflict) !== JSON.stringify(before.obmConflict)
      ? [{ ...nodeEvent(after, "obms.conflict", { obmConflict: after.obmConflict }), severity: "warning" }]
      : [];
  // Its life: every change of provision state, with the action that made it (nodes/provisionState.ts).
  const state: EventDraft[] =
    after.provisionState !== undefined && after.provisionState !== before.provisionState
      ? [
          {
            ...nodeEvent(after, "state.changed", {
              from: before.provisionState ?? "discovered",
              to: after.provisionState,
              ...(after.provisioning?.action && { action: after.provisioning.action }),
              ...(after.provisioning?.workflowId && { workflowId: after.provisioning.workflowId }),
              ...(after.provisionState === "failed" && after.provisioning?.lastError && { lastError: after.provisioning.lastError }),
            }),
            ...(after.provisionState === "failed" && { severity: "warning" as const }),
          },
        ]
      : [];
  return conflict.concat(
    state,
    NODE_ATTRIBUTES.flatMap((attribute) => {
      const action = attributeAction(before[attribute], after[attribute]);
      // The OBM settings hold credentials: the event says which services, never their configs.
      const value = attribute === "obmSettings" ? after.obmSettings.map((obm) => obm.service) : after[attribute];
      return action ? [nodeEvent(after, `${ATTRIBUTE_NAMES[attribute]}.${action}`, { [ATTRIBUTE_NAMES[attribute]]: value })] : [];
    }),
  );
}

/** The node a graph event concerns: RackHD's null for a graph run with no target. */
const nodeOf = (workflow: Workflow): string | null => (workflow.node === "" ? null : workflow.node);

const graphData = (workflow: Workflow): Record<string, unknown> => ({
  graphId: workflow.instanceId,
  graphName: workflow.name,
  injectableName: workflow.injectableName,
  status: workflow._status,
  nodeId: nodeOf(workflow),
});

const graphEvent = (workflow: Workflow, action: string, severity: Severity, data: Record<string, unknown>): EventDraft => ({
  type: "graph",
  action,
  severity,
  typeId: workflow.instanceId,
  nodeId: nodeOf(workflow),
  data,
});

/** An install's stages, from the times its task records (installReports and the boot routes set them). */
const INSTALL_STAGES = [
  ["bootedAt", "booted"],
  ["templateFetchedAt", "installer-fetched"],
  ["installerStartedAt", "installer-started"],
  ["installedAt", "installed"],
  ["firstBootAt", "first-boot-finished"],
] as const satisfies readonly (readonly [keyof WorkflowTask, string])[];

const FINISHED_SEVERITY: Record<Workflow["_status"], Severity> = {
  running: "information",
  succeeded: "information",
  failed: "critical",
  timeout: "critical",
  cancelled: "warning",
};

/** RackHD's percentage (on-core GraphProgress): of the maximum, whole, with "%"; "Not available" without a maximum. */
const percentageOf = (value: number, maximum: number): string =>
  maximum > 0 && value >= 0 && value <= maximum ? `${Math.round((100 * value) / maximum)}%` : "Not available";

/** A task's part of an on-core progress event: started at 0 of 100, finished at 100 of 100 (DefaultTaskProgressMaximum). */
const TASK_PHASE = {
  started: { value: 0, maximum: 100, description: "Task started", percentage: "0%" },
  finished: { value: 100, maximum: 100, description: "Task finished", percentage: "100%" },
} as const;

/**
 * `graph.progress.updated` as on-core's GraphProgress sent it (issue 35 §14): the graph's progress
 * (tasks not pending of all tasks, all once it succeeded) with a description that names the task,
 * and the task's own progress under `taskProgress.progress`.
 */
function progressEvent(workflow: Workflow, task: WorkflowTask, phase: keyof typeof TASK_PHASE): EventDraft {
  const tasks = Object.values(workflow.tasks);
  const maximum = tasks.length;
  const value = workflow._status === "succeeded" ? maximum : tasks.filter((each) => each.state !== "pending").length;
  const taskName = task.friendlyName || task.label || "Not available";
  const withError = phase === "finished" && task.state !== "succeeded" ? " with error" : "";
  return graphEvent(workflow, "progress.updated", "information", {
    ...graphData(workflow),
    graphName: workflow.name || "Not available",
    progress: { description: `Task "${taskName}" ${phase}${withError}`, value, maximum, percentage: percentageOf(value, maximum) },
    taskProgress: { taskId: task.instanceId, taskName, state: task.state, progress: TASK_PHASE[phase] },
  });
}

const isFinished = (task: WorkflowTask): boolean => task.state !== "pending" && task.state !== "running";

/** The progress events of a task's change of state: started when it leaves pending, finished when it ends (both when it does both at once). */
function taskProgressEvents(workflow: Workflow, task: WorkflowTask, was: WorkflowTask["state"]): EventDraft[] {
  const phases: (keyof typeof TASK_PHASE)[] = [];
  if (was === "pending" && task.state !== "pending") phases.push("started");
  if (isFinished(task) && (was === "pending" || was === "running")) phases.push("finished");
  return phases.map((phase) => progressEvent(workflow, task, phase));
}

export function workflowChangeEvents(before: Workflow | undefined, after: Workflow | undefined): EventDraft[] {
  if (!after) return [];
  if (!before) {
    const started = graphEvent(after, "started", "information", graphData(after));
    // A graph that ended as it started (Graph.noop-example): its tasks' progress and its end, in the same write.
    if (after._status === "running") return [started];
    const progress = Object.values(after.tasks).flatMap((task) => taskProgressEvents(after, task, "pending"));
    return [started, ...progress, ...finishedEvents(after)];
  }
  const events: EventDraft[] = [];
  const tasks = Object.values(after.tasks);
  for (const task of tasks) {
    const was = before.tasks[task.instanceId];
    if (was && was.state !== task.state) events.push(...taskProgressEvents(after, task, was.state));
    for (const [field, stage] of INSTALL_STAGES) {
      if (task[field] && task[field] !== was?.[field]) {
        events.push({
          type: "install",
          action: stage === "first-boot-finished" ? "firstboot.finished" : "progress",
          severity: "information",
          typeId: after.instanceId,
          nodeId: nodeOf(after),
          data: { graphId: after.instanceId, taskId: task.instanceId, taskName: task.label, stage, at: task[field] },
        });
      }
    }
  }
  if (before._status === "running" && after._status !== "running") events.push(...finishedEvents(after));
  return events;
}

/** A graph's end: `graph.finished` (with its failure's reason), and RackHD's `node.discovered` after a discovery graph. */
function finishedEvents(after: Workflow): EventDraft[] {
  const finished = graphEvent(after, "finished", FINISHED_SEVERITY[after._status], {
    ...graphData(after),
    ...(after.failure && { failure: { reason: after.failure.reason, message: after.failure.message, task: after.failure.task } }),
  });
  if (!(after._status === "succeeded" && /Discovery/i.test(after.injectableName) && after.node !== "")) return [finished];
  return [
    finished,
    {
      type: "node",
      action: "discovered",
      severity: "information",
      typeId: after.node,
      nodeId: after.node,
      data: { graphId: after.instanceId, graphName: after.name },
    },
  ];
}

/** A BMC action's result (power, boot device, identify), when a relay reports it; a poller's runs are samples, not events. */
export function relayJobChangeEvents(before: RelayJob | undefined, after: RelayJob | undefined): EventDraft[] {
  if (!after?.result || before?.result || after.action.kind === "poll") return [];
  return [
    {
      type: "power",
      action: after.result.ok ? "succeeded" : "failed",
      severity: after.result.ok ? "information" : "warning",
      typeId: after.id,
      nodeId: after.node,
      data: {
        job: after.id,
        action: after.action,
        site: after.site,
        relay: after.result.relay,
        ...(after.result.error !== undefined && { error: after.result.error }),
      },
    },
  ];
}

/**
 * What a hook's change event reads of it: declared here, not imported from hooks/, because hooks/
 * reads this folder's events (a hook wants some of them) and the two folders must not import each
 * other; a Hook is one of these.
 */
export interface DisablableHook {
  id: string;
  url: string;
  disabledAt?: string;
  disabledReason?: string;
}

/** A hook the service disabled (it failed for a day): its owner hears it on the bus and in the hook's events. */
export function hookChangeEvents(before: DisablableHook | undefined, after: DisablableHook | undefined): EventDraft[] {
  if (!after?.disabledAt || before?.disabledAt || !before) return [];
  return [
    {
      type: "hook",
      action: "disabled",
      severity: "warning",
      typeId: after.id,
      nodeId: null,
      data: { hookId: after.id, url: after.url, reason: after.disabledReason ?? "disabled" },
    },
  ];
}

const relayEvent = (credential: RelayCredential, action: "connected" | "lost", severity: Severity, at: string): EventDraft => ({
  type: "relay",
  action,
  severity,
  typeId: credential.id,
  nodeId: null,
  data: {
    relay: credential.id,
    name: credential.name,
    site: credential.site,
    at,
    ...(credential.relayVersion && { relayVersion: credential.relayVersion }),
  },
});

/** A relay heard from after being offline (connected), or found quiet by the service (lost). */
export function relayCredentialChangeEvents(before: RelayCredential | undefined, after: RelayCredential | undefined): EventDraft[] {
  if (!before || !after) return [];
  if (after.lostAt && after.lostAt !== before.lostAt) return [relayEvent(after, "lost", "warning", after.lostAt)];
  if (after.lastSeenAt && after.lastSeenAt !== before.lastSeenAt && wasOffline(before, new Date(after.lastSeenAt))) {
    return [relayEvent(after, "connected", "information", after.lastSeenAt)];
  }
  return [];
}
