import { createHash } from "node:crypto";
import type { ServiceEvent } from "../provisioning/events/event";
import type { AuditRecord } from "./auditTrail";

/**
 * The audit trail sent as events (issue 55): each record as an `audit.recorded` event, on the
 * event bus (deployed: the table's stream, whose filter takes the trail's items too) and to the
 * hooks that name it (lib/provisioning/hooks/hook.ts: `*` does not, so that a receiver that
 * answers events with changes is never fed its own). Not numbered: the records of a trail have no
 * per-subject order but their time, so `sequence` is 0 and `createdAt` is the record's time.
 */
export function auditEvent(record: AuditRecord): ServiceEvent {
  // The same id for every delivery of the record (receivers drop a repeated id): a UUID made from its own.
  const hex = createHash("sha256").update(`audit:${record.id}`).digest("hex");
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return {
    id,
    type: "audit",
    action: "recorded",
    // A refusal (401, 403, 429) or a failed change is worth a look.
    severity: record.status >= 400 ? "warning" : "information",
    typeId: record.id,
    nodeId: record.node ?? null,
    data: { ...record },
    version: "1.0",
    createdAt: record.at,
    subject: "audit",
    sequence: 0,
  };
}
