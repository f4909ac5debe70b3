/**
 * The service's events (issue 27): RackHD's envelope (on-core's `publishExternalEvent`: type,
 * action, severity, typeId, nodeId, data, version "1.0", createdAt), so that a RackHD-era
 * receiver reads them unchanged, plus what a receiver today needs: an id (stable across retries:
 * Standard Webhooks' `webhook-id`), and a sequence per subject (a node's events are numbered 1, 2,
 * 3… in the order they were written, so a receiver can order them and see a gap).
 */

export const SEVERITIES = ["information", "warning", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** An event as the change that makes it describes it; the store gives it its id, sequence and time. */
export interface EventDraft {
  /** RackHD's `type`: node, graph, install, power, hook. */
  type: string;
  /** RackHD's `action`: added, removed, started, finished, progress.updated, sku.assigned… */
  action: string;
  severity: Severity;
  /** What the event is about: a node's, a graph's, a hook's id (RackHD's `typeId`). */
  typeId: string;
  /** The node it concerns; null when none (RackHD sent null). */
  nodeId: string | null;
  data: Record<string, unknown>;
}

export interface ServiceEvent extends EventDraft {
  /** A UUID: the same in every delivery of the event. */
  id: string;
  version: "1.0";
  createdAt: string;
  /** Whose sequence numbers it: the node's id, or `hook:<id>` for a hook's own events. */
  subject: string;
  /** 1 for the subject's first event, then one more for each. */
  sequence: number;
}

/**
 * Every event name the service sends (docs/events.md): what a hook may ask for by name, or by a
 * prefix of one (`node.*`, `node.sku.*`), or `*` (issue 35 §14: a name that names no event is a 400).
 */
export const EVENT_NAMES = [
  ...["added", "removed", "discovered"].map((action) => `node.${action}`),
  ...["sku", "obms", "tags"].flatMap((attribute) => ["assigned", "updated", "unassigned"].map((action) => `node.${attribute}.${action}`)),
  "node.obms.conflict",
  "node.state.changed",
  "graph.started",
  "graph.progress.updated",
  "graph.finished",
  "install.progress",
  "install.firstboot.finished",
  "power.succeeded",
  "power.failed",
  "relay.connected",
  "relay.lost",
  "hook.disabled",
  "hook.test",
  // The audit trail's records (lib/audit/auditEvent.ts): only to hooks that name them.
  "audit.recorded",
] as const;

/** Whether `wanted` (a hook's `events` entry) names an event the service sends: `*`, a name, or a name's prefix with `.*`. */
export function namesAnEvent(wanted: string): boolean {
  if (wanted === "*") return true;
  if (wanted.endsWith(".*")) return EVENT_NAMES.some((name) => name.startsWith(wanted.slice(0, -1)));
  return (EVENT_NAMES as readonly string[]).includes(wanted);
}

/** `type.action`, the name hooks choose events by (`graph.finished`, `node.sku.assigned`). */
export const eventName = (event: Pick<EventDraft, "type" | "action">): string => `${event.type}.${event.action}`;

/** The subject that numbers a draft: its node, or what it is about. */
export const subjectOf = (draft: Pick<EventDraft, "nodeId" | "type" | "typeId">): string => draft.nodeId ?? `${draft.type}:${draft.typeId}`;

/** How long the service keeps an event (the timeline's depth); deliveries end well before. */
export const EVENT_RETENTION_DAYS = 30;

/** RackHD's envelope: the event as it was POSTed to its hooks, with our id and sequence added. */
export function envelope(event: ServiceEvent): Record<string, unknown> {
  return {
    id: event.id,
    type: event.type,
    action: event.action,
    severity: event.severity,
    typeId: event.typeId,
    nodeId: event.nodeId,
    data: event.data,
    version: event.version,
    createdAt: event.createdAt,
    sequence: event.sequence,
  };
}
