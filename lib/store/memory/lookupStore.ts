import { byPosition, type Page, type PageRequest, pageOf, recordPosition } from "../../provisioning/listPage";
import { type Lookup, type LookupStore, LookupTakenError } from "../../provisioning/lookups/lookupStore";
import { Budget, type BudgetLimits } from "./budget";
import { deepFreeze } from "./deepFreeze";

const FOOTPRINT = 512;

/** Lookups in this container's memory, by id, MAC, IP and node; bounded. */

export class MemoryLookupStore implements LookupStore {
  private readonly byId = new Map<string, Lookup>();
  private readonly macs = new Map<string, string>();
  private readonly ips = new Map<string, string>();
  private readonly budget: Budget;

  constructor(limits: BudgetLimits) {
    this.budget = new Budget(limits);
  }

  async create(lookup: Lookup): Promise<Lookup> {
    this.assertFree(lookup);
    this.budget.reserve(1, FOOTPRINT, "lookup");
    return this.put(lookup);
  }

  async get(id: string): Promise<Lookup | undefined> {
    return this.byId.get(id);
  }

  async byMac(mac: string): Promise<Lookup | undefined> {
    return this.byId.get(this.macs.get(mac) ?? "");
  }

  async byIp(ip: string): Promise<Lookup | undefined> {
    return this.byId.get(this.ips.get(ip) ?? "");
  }

  async forNode(nodeId: string): Promise<Lookup[]> {
    return (await this.list()).filter((lookup) => lookup.node === nodeId);
  }

  /** In position order (creation, ties by id), as the pages are. */
  async list(): Promise<Lookup[]> {
    return byPosition([...this.byId.values()], recordPosition);
  }

  async page(request: PageRequest): Promise<Page<Lookup>> {
    return pageOf([...this.byId.values()], recordPosition, request);
  }

  async update(id: string, change: (current: Lookup) => Lookup): Promise<Lookup | undefined> {
    const current = this.byId.get(id);
    if (!current) return undefined;
    const changed = change(current);
    if (changed === current) return current;
    const next = { ...changed, id };
    this.assertFree(next);
    this.forget(current);
    return this.put(next);
  }

  async delete(id: string): Promise<Lookup | undefined> {
    const current = this.byId.get(id);
    if (!current) return undefined;
    this.forget(current);
    this.byId.delete(id);
    this.budget.release(1, FOOTPRINT);
    return current;
  }

  private assertFree(lookup: Lookup): void {
    const macOwner = this.macs.get(lookup.macAddress);
    if (macOwner !== undefined && macOwner !== lookup.id) throw new LookupTakenError("macAddress", lookup.macAddress);
    const ipOwner = lookup.ipAddress === undefined ? undefined : this.ips.get(lookup.ipAddress);
    if (ipOwner !== undefined && ipOwner !== lookup.id) throw new LookupTakenError("ipAddress", lookup.ipAddress!);
  }

  private put(lookup: Lookup): Lookup {
    const stored = deepFreeze({ ...lookup });
    // Re-inserted at its place: a Map keeps insertion order, and an update keeps the record's.
    this.byId.set(stored.id, stored);
    this.macs.set(stored.macAddress, stored.id);
    if (stored.ipAddress !== undefined) this.ips.set(stored.ipAddress, stored.id);
    return stored;
  }

  private forget(lookup: Lookup): void {
    this.macs.delete(lookup.macAddress);
    if (lookup.ipAddress !== undefined) this.ips.delete(lookup.ipAddress);
  }
}
