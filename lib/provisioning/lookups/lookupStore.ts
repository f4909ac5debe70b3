import { DomainError, isDomainError } from "../../errors";
import type { Page, PageRequest } from "../listPage";

/**
 * A lookup (RackHD §2.6): which node a MAC address belongs to, and the IP address it was last
 * seen at. Each MAC and each IP is in one lookup at most. `node` is "" once its node is deleted.
 */
export interface Lookup {
  id: string;
  node: string;
  macAddress: string;
  ipAddress?: string;
  createdAt: string;
  updatedAt: string;
}

/** Which of a lookup's unique fields another lookup holds. */
export type LookupField = "macAddress" | "ipAddress";

/** The port through which lookups are kept; MACs and IPs unique, against concurrent writers too. */
export interface LookupStore {
  /** Stores a new lookup; LookupTakenError when its MAC or IP is another lookup's. */
  create(lookup: Lookup): Promise<Lookup>;
  get(id: string): Promise<Lookup | undefined>;
  byMac(mac: string): Promise<Lookup | undefined>;
  byIp(ip: string): Promise<Lookup | undefined>;
  /** A node's lookups, oldest first. */
  forNode(nodeId: string): Promise<Lookup[]>;
  /** Every lookup, oldest first. */
  list(): Promise<Lookup[]>;
  /** One page of that list, read alone (see listPage): a fleet has a lookup or two a machine. */
  page(request: PageRequest): Promise<Page<Lookup>>;
  /** Applies `change` atomically; LookupTakenError when the new MAC or IP is another lookup's. */
  update(id: string, change: (current: Lookup) => Lookup): Promise<Lookup | undefined>;
  delete(id: string): Promise<Lookup | undefined>;
}

/**
 * A lookup's MAC or IP is another lookup's: the store refused the write. RackHD answered it as a
 * unique-field validation error (400). A domain error, so that it is known by its brand, not by
 * `instanceof`: the store that throws it may come from another bundle of the same process.
 */
export class LookupTakenError extends DomainError {
  static is = (error: unknown): error is LookupTakenError => isDomainError(error) && error.name === "LookupTakenError";
  readonly kind = "bad-request";
  // Spelled out: a minifying bundler may rename the class.
  override readonly name = "LookupTakenError";
  constructor(
    readonly field: LookupField,
    readonly value: string,
  ) {
    super(`A lookup with ${field} ${value} already exists`);
  }
}
