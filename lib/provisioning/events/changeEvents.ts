import type { Hook } from "../hooks/hook";
import type { Node } from "../nodes/node";
import type { RelayJob } from "../relays/job";
import { type RelayCredential, wasOffline } from "../relays/site";
import type { Workflow, WorkflowTask } from "../workflows/workflow";
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
  return NODE_ATTRIBUTES.flatMap((attribute) => {
    const action = attributeAction(before[attribute], after[attribute]);
    // The OBM settings hold credentials: the event says which services, never their configs.
    const value = attribute === "obmSettings" ? after.obmSettings.map((obm) => obm.service) : after[attribute];
    return action ? [nodeEvent(after, `${ATTRIBUTE_NAMES[attribute]}.${action}`, { [ATTRIBUTE_NAMES[attribute]]: value })] : [];
  });
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

export function workflowChangeEvents(before: Workflow | undefined, after: Workflow | undefined): EventDraft[] {
  if (!after) return [];
  if (!before) return [graphEvent(after, "started", "information", graphData(after))];
  const events: EventDraft[] = [];
  const tasks = Object.values(after.tasks);
  const done = tasks.filter((task) => task.state !== "pending" && task.state !== "running").length;
  for (const task of tasks) {
    const was = before.tasks[task.instanceId];
    if (was && was.state !== task.state) {
      events.push(
        graphEvent(after, "progress.updated", "information", {
          ...graphData(after),
          progress: {
            value: done,
            maximum: tasks.length,
            percentage: `${Math.round((100 * done) / Math.max(1, tasks.length))}%`,
            description: `Task "${task.label}" ${task.state}`,
          },
          taskProgress: { taskId: task.instanceId, taskName: task.label, state: task.state },
        }),
      );
    }
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
  if (before._status === "running" && after._status !== "running") {
    events.push(
      graphEvent(after, "finished", FINISHED_SEVERITY[after._status], {
        ...graphData(after),
        ...(after.failure && { failure: { reason: after.failure.reason, message: after.failure.message, task: after.failure.task } }),
      }),
    );
    // RackHD announced a discovered node when its discovery graph finished.
    if (after._status === "succeeded" && /Discovery/i.test(after.injectableName) && after.node !== "") {
      events.push({
        type: "node",
        action: "discovered",
        severity: "information",
        typeId: after.node,
        nodeId: after.node,
        data: { graphId: after.instanceId, graphName: after.name },
      });
    }
  }
  return events;
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

/** A hook the service disabled (it failed for a day): its owner hears it on the bus and in the hook's events. */
export function hookChangeEvents(before: Hook | undefined, after: Hook | undefined): EventDraft[] {
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
