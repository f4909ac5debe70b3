import type { Page, PageRequest } from "../listPage";
import type { RecordStore } from "../recordStore";

/**
 * An address given to a node's interface (issue 54): one record per subnet and address, its id
 * `<subnet>/<sort key>`, so the store's refusal of a second create with the id (a DynamoDB
 * conditional write) is what keeps two nodes from one address, however many allocate at once.
 */
export interface AddressAllocation {
  id: string;
  subnet: string;
  /** The address's sort key (address.ts `sortKey`): the subnet's addresses list in address order. */
  key: string;
  address: string;
  node: string;
  /** The plan's interface that holds it. */
  interface: string;
  createdAt: string;
}

export const allocationId = (subnet: string, key: string): string => `${subnet}/${key}`;

export interface AddressStore extends RecordStore<AddressAllocation> {
  /** One page of a subnet's allocations in address order; a page's `next` is the last one's key. */
  pageOfSubnet(subnet: string, request: PageRequest): Promise<Page<AddressAllocation>>;
  /**
   * The keys taken in a subnet from `from` to `to` (both included), in order, at most `limit`:
   * what allocation reads to find a free address, keys only (no record is read).
   */
  takenKeys(subnet: string, range: { from: string; to: string }, limit: number): Promise<string[]>;
}
