import { ConflictError, isDomainError, UnavailableError, ValidationError } from "../../errors";
import type { StoresOf } from "../ports";
import { fromSortKey, sortKey, toNumber, toText } from "./address";
import { type AddressAllocation, allocationId } from "./addressStore";
import { familyOfSubnet, poolKeys, type Subnet, unassignable } from "./subnet";

/** Who holds an address: a node's interface. */
export interface Holder {
  node: string;
  interface: string;
}

/** Keys read per query while looking for a free address (a full pool of 10,000 is 40 queries of keys). */
export const TAKEN_PAGE = 256;

/**
 * Claims lost to other writers before an allocation gives up (503: try again). Each loss re-reads
 * from the lost address on, so a burst of concurrent allocations each end on a different address.
 */
export const CLAIM_ATTEMPTS = 64;

const isConflict = (error: unknown) => isDomainError(error) && error.kind === "conflict";

const record = (subnet: Subnet, address: string, key: string, holder: Holder, now: Date): AddressAllocation => ({
  id: allocationId(subnet.id, key),
  subnet: subnet.id,
  key,
  address,
  node: holder.node,
  interface: holder.interface,
  createdAt: now.toISOString(),
});

/**
 * The lowest free address of the subnet's pools, claimed for `holder` (MAAS gives the lowest too:
 * a plan's addresses are predictable). It reads the taken keys from the pool's start a page at a
 * time until a gap, and claims the gap with a conditional create; another writer's claim of the
 * same address sends it on from there.
 */
export async function allocateNext(stores: StoresOf<"addresses">, subnet: Subnet, holder: Holder, now: Date): Promise<AddressAllocation> {
  const family = familyOfSubnet(subnet);
  let attempts = 0;
  for (const pool of poolKeys(subnet)) {
    const last = fromSortKey(pool.to);
    let from = fromSortKey(pool.from);
    while (from <= last) {
      const taken = await stores.addresses.takenKeys(subnet.id, { from: sortKey(family, from), to: pool.to }, TAKEN_PAGE);
      let candidate = from;
      for (const key of taken) {
        if (fromSortKey(key) !== candidate) break;
        candidate += 1n;
      }
      // A full page taken without a gap: the gap, if any, is further on.
      if (taken.length === TAKEN_PAGE && candidate === fromSortKey(taken[taken.length - 1]) + 1n) {
        from = candidate;
        continue;
      }
      if (candidate > last) break;
      const key = sortKey(family, candidate);
      try {
        return await stores.addresses.create(record(subnet, toText(family, candidate), key, holder, now));
      } catch (error) {
        if (!isConflict(error)) throw error;
        attempts += 1;
        if (attempts >= CLAIM_ATTEMPTS) {
          throw new UnavailableError(`Subnet ${subnet.id}: ${attempts} addresses were taken by others as this request claimed them`, 1);
        }
        from = candidate + 1n;
      }
    }
  }
  throw new ConflictError(`Subnet ${subnet.id} (${subnet.cidr}) has no free address left in its pool`);
}

/** The address `text` for `holder`: refused where no host may have it, or when another holder has it. */
export async function claimAddress(
  stores: StoresOf<"addresses">,
  subnet: Subnet,
  text: string,
  holder: Holder,
  now: Date,
): Promise<AddressAllocation> {
  const why = unassignable(subnet, text);
  if (why !== undefined) throw new ValidationError(`Cannot give ${holder.interface} ${text}: ${why}`);
  const number = toNumber(text)!;
  const key = sortKey(number.family, number.value);
  const held = await stores.addresses.get(allocationId(subnet.id, key));
  if (held) {
    if (held.node === holder.node) return held;
    throw new ConflictError(`${held.address} of subnet ${subnet.id} is node ${held.node}'s (${held.interface})`);
  }
  try {
    return await stores.addresses.create(record(subnet, toText(number.family, number.value), key, holder, now));
  } catch (error) {
    if (!isConflict(error)) throw error;
    throw new ConflictError(`${text} of subnet ${subnet.id} was taken by another node as this request claimed it`);
  }
}

/** Frees an allocation if `node` still holds it (a freed and re-given address is left to its new holder). */
export async function freeAddress(stores: StoresOf<"addresses">, id: string, node: string): Promise<void> {
  const held = await stores.addresses.get(id);
  if (held?.node === node) await stores.addresses.delete(id);
}
