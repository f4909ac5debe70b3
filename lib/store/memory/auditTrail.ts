import { auditEvent } from "../../audit/auditEvent";
import { type AuditRecord, type AuditTrail, dayOf } from "../../audit/auditTrail";
import { eventsCommitted } from "../eventFeed";

/** The audit trail in this process (the memory store): the newest `capacity` records. */
export class MemoryAuditTrail implements AuditTrail {
  private readonly records: AuditRecord[] = [];
  constructor(private readonly capacity = 10_000) {}

  async add(record: AuditRecord): Promise<void> {
    this.records.push(structuredClone(record));
    // Ids sort by time: a record added out of order (two requests ending together) goes to its place.
    this.records.sort((a, b) => a.id.localeCompare(b.id));
    if (this.records.length > this.capacity) this.records.splice(0, this.records.length - this.capacity);
    // Sent as an event, as the table's stream sends the DynamoDB store's (the local delivery listens).
    eventsCommitted([auditEvent(record)]);
  }

  async day(day: string, { before, limit }: { before?: string; limit: number }): Promise<AuditRecord[]> {
    return this.records
      .filter((record) => dayOf(record.id) === day && (before === undefined || record.id < before))
      .reverse()
      .slice(0, limit)
      .map((record) => structuredClone(record));
  }
}
