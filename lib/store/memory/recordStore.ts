import { ConflictError } from "../../errors";
import type { Page, PageRequest } from "../../provisioning/listPage";
import type { RecordStore } from "../../provisioning/recordStore";
import { isFinished, type RelayJob, type RelayJobStore } from "../../provisioning/relays/job";
import type { RelayConnection, RelayConnectionStore } from "../../provisioning/relays/relayConnection";
import type { AddressAllocation, AddressStore } from "../../provisioning/subnets/addressStore";
import { Budget, type BudgetLimits } from "./budget";
import { deepFreeze } from "./deepFreeze";

const footprint = (record: object): number => 2 * JSON.stringify(record).length + 128;

/** Records of one kind in this container's memory, bounded. */
export class MemoryRecordStore<T extends { id: string; createdAt: string }> implements RecordStore<T> {
  private readonly records = new Map<string, T>();
  private readonly budget: Budget;

  constructor(
    limits: BudgetLimits,
    private readonly what: string,
  ) {
    this.budget = new Budget(limits);
  }

  async create(record: T): Promise<T> {
    if (this.records.has(record.id)) throw new ConflictError(`${record.id} already exists`);
    this.budget.reserve(1, footprint(record), this.what);
    const stored = deepFreeze(structuredClone(record));
    this.records.set(stored.id, stored);
    return stored;
  }

  async get(id: string): Promise<T | undefined> {
    return this.records.get(id);
  }

  /** Oldest first, ties by id (as the DynamoDB store). */
  async list(): Promise<T[]> {
    return [...this.records.values()].sort((a, b) =>
      a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
    );
  }

  async update(id: string, change: (current: T) => T): Promise<T | undefined> {
    const current = this.records.get(id);
    if (!current) return undefined;
    const changed = change(current);
    if (changed === current) return current;
    const next = deepFreeze(structuredClone({ ...changed, id }));
    this.budget.reserve(0, footprint(next) - footprint(current), this.what);
    this.records.set(id, next);
    return next;
  }

  async delete(id: string): Promise<T | undefined> {
    const current = this.records.get(id);
    if (!current) return undefined;
    this.records.delete(id);
    this.budget.release(1, footprint(current));
    return current;
  }
}

/** The relay jobs in memory: a site's open ones are its unfinished ones, in creation order. */
export class MemoryRelayJobStore extends MemoryRecordStore<RelayJob> implements RelayJobStore {
  async openForSite(site: string): Promise<RelayJob[]> {
    return (await this.list()).filter((job) => job.site === site && !isFinished(job));
  }
}

/** Allocated addresses in memory: a subnet's, in address order, read by filtering the kind's records. */
export class MemoryAddressStore extends MemoryRecordStore<AddressAllocation> implements AddressStore {
  private async ofSubnet(subnet: string): Promise<AddressAllocation[]> {
    return (await this.list()).filter((allocation) => allocation.subnet === subnet).sort((a, b) => (a.key < b.key ? -1 : 1));
  }

  async pageOfSubnet(subnet: string, request: PageRequest): Promise<Page<AddressAllocation>> {
    const after = (await this.ofSubnet(subnet)).filter((allocation) => request.after === undefined || allocation.key > request.after);
    const items = after.slice(0, request.limit);
    return after.length > request.limit ? { items, next: items[items.length - 1].key } : { items };
  }

  async takenKeys(subnet: string, range: { from: string; to: string }, limit: number): Promise<string[]> {
    return (await this.ofSubnet(subnet))
      .map((allocation) => allocation.key)
      .filter((key) => key >= range.from && key <= range.to)
      .slice(0, limit);
  }
}

/** The relays' push connections in memory, bounded like the rest; an expired one is left out of a site's and forgotten when next read. */
export class MemoryRelayConnectionStore implements RelayConnectionStore {
  private readonly records: MemoryRecordStore<RelayConnection & { createdAt: string }>;

  constructor(limits: BudgetLimits) {
    this.records = new MemoryRecordStore(limits, "relay connection");
  }

  async add(connection: RelayConnection): Promise<void> {
    await this.records.delete(connection.id);
    await this.records.create({ ...connection, createdAt: connection.connectedAt });
  }

  async get(id: string): Promise<RelayConnection | undefined> {
    const record = await this.records.get(id);
    if (!record) return undefined;
    const { createdAt: _kept, ...connection } = record;
    return connection;
  }

  async delete(id: string): Promise<void> {
    await this.records.delete(id);
  }

  async idsOfSite(site: string, now: Date): Promise<string[]> {
    const ids: string[] = [];
    for (const connection of await this.records.list()) {
      if (Date.parse(connection.expiresAt) <= now.getTime()) await this.records.delete(connection.id);
      else if (connection.site === site) ids.push(connection.id);
    }
    return ids;
  }
}
