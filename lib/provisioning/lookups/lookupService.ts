import { NotFoundError, ValidationError } from "../../errors";
import { OBJECT_ID, orderedId } from "../ids";
import { IPV4 } from "../ipAddress";
import { type Page, type PageRequest, pageOf, recordPosition } from "../listPage";
import { normalizeMac } from "../mac";
import type { StoresOf } from "../ports";
import { fitsKey } from "../recordSize";
import { type Lookup, LookupTakenError } from "./lookupStore";

export interface LookupFields {
  macAddress?: string;
  ipAddress?: string;
  node?: string;
}

/** The fields of a POST or PATCH body, checked: a MAC (any spelling, kept lower-case with colons), an IPv4 address. */
function checkFields(body: LookupFields): LookupFields {
  const fields: LookupFields = {};
  if (body.macAddress !== undefined) {
    const mac = normalizeMac(body.macAddress);
    if (!mac) throw new ValidationError(`macAddress must be a MAC address (got ${body.macAddress})`);
    fields.macAddress = mac;
  }
  if (body.ipAddress !== undefined) {
    if (!IPV4.test(body.ipAddress)) throw new ValidationError(`ipAddress must be an IPv4 address (got ${body.ipAddress})`);
    fields.ipAddress = body.ipAddress;
  }
  if (body.node !== undefined) fields.node = body.node;
  return fields;
}

const notFound = (id: string) => new NotFoundError(`Could not find lookup with criteria {"id":"${id}"}.`);

/**
 * GET /lookups?q=: RackHD era C's findByTerm, which decides by the term's form: an IP matches
 * `ipAddress`, a 24-hex id `node`, anything else `macAddress` (lower-cased). No term: all.
 */
export async function findLookups(stores: StoresOf<"lookups">, term: string | undefined): Promise<Lookup[]> {
  if (term === undefined || term === "") return stores.lookups.list();
  if (!fitsKey(term)) return [];
  if (IPV4.test(term)) return present(await stores.lookups.byIp(term));
  if (OBJECT_ID.test(term.toLowerCase())) return stores.lookups.forNode(term.toLowerCase());
  return present(await stores.lookups.byMac(normalizeMac(term) ?? term.toLowerCase()));
}

const present = (lookup: Lookup | undefined): Lookup[] => (lookup ? [lookup] : []);

/** A page of that answer: every lookup (no `q`) is a page of the fleet's list, read alone; a search's answer is a few. */
export async function findLookupsPage(stores: StoresOf<"lookups">, term: string | undefined, request: PageRequest): Promise<Page<Lookup>> {
  if (term === undefined || term === "") return stores.lookups.page(request);
  return pageOf(await findLookups(stores, term), recordPosition, request);
}

export async function getLookup(stores: StoresOf<"lookups">, id: string): Promise<Lookup> {
  const lookup = fitsKey(id) ? await stores.lookups.get(id) : undefined;
  if (!lookup) throw notFound(id);
  return lookup;
}

/** POST /lookups → 200 (RackHD); a MAC or IP another lookup has: 400. */
export async function createLookup(stores: StoresOf<"lookups">, body: LookupFields, now: Date): Promise<Lookup> {
  const fields = checkFields(body);
  if (!fields.macAddress) throw new ValidationError("macAddress is required");
  const stamp = now.toISOString();
  const lookup: Lookup = {
    id: orderedId(now),
    node: fields.node ?? "",
    macAddress: fields.macAddress,
    ...(fields.ipAddress && { ipAddress: fields.ipAddress }),
    createdAt: stamp,
    updatedAt: stamp,
  };
  // A taken MAC or IP: the store's LookupTakenError, RackHD's 400.
  return stores.lookups.create(lookup);
}

export async function patchLookup(stores: StoresOf<"lookups">, id: string, body: LookupFields, now: Date): Promise<Lookup> {
  await getLookup(stores, id);
  const fields = checkFields(body);
  const updated = await stores.lookups.update(id, (current) => ({ ...current, ...fields, updatedAt: now.toISOString() }));
  if (!updated) throw notFound(id);
  return updated;
}

/** DELETE /lookups/{id} → 200 with the record deleted. */
export async function deleteLookup(stores: StoresOf<"lookups">, id: string): Promise<Lookup> {
  const deleted = fitsKey(id) ? await stores.lookups.delete(id) : undefined;
  if (!deleted) throw notFound(id);
  return deleted;
}

/** Tries at taking an address from the machine that used it before; each loses only to another writer. */
const ADDRESS_ATTEMPTS = 8;

/**
 * A machine's MAC was seen belonging to `nodeId` (discovery, a boot, a NIC in its lshw catalog),
 * at `ip` when known: its lookup is created or brought up to date, and an IP it now has is taken
 * from the lookup that had it (a DHCP address moves; machines behind one NAT or relay take turns
 * on one address, and the address names the one that used it last). No write when nothing
 * changed. Never fails for a taken address: when other machines keep taking it in between, the
 * MAC is recorded without it.
 */
export async function recordAddress(
  stores: StoresOf<"lookups" | "nodes">,
  mac: string,
  nodeId: string,
  ip: string | undefined,
  now: Date,
  claim: AddressClaim = "take",
): Promise<void> {
  for (let attempt = 0; attempt < ADDRESS_ATTEMPTS; attempt += 1) {
    try {
      if (await writeAddress(stores, mac, nodeId, ip, now, claim)) return;
    } catch (error) {
      // Another writer took the MAC or the IP in between: look again, after a short random wait
      // so that machines racing for one address do not meet again at once.
      if (!LookupTakenError.is(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)));
    }
  }
  if (ip !== undefined) await recordAddress(stores, mac, nodeId, undefined, now, claim);
}

/**
 * Whose word the MAC is taken on: `take`, the service's own (the node the MAC booted as, found by
 * its identifiers); `unclaimed`, the machine's about itself (a NIC in its lshw catalog), which
 * records a MAC no node holds and never moves another node's lookup (issue 35 §4).
 */
export type AddressClaim = "take" | "unclaimed";

/** Whether a lookup held by `holder` may be given to `nodeId` on this claim. */
const mayTake = (holder: string, nodeId: string, claim: AddressClaim): boolean => claim === "take" || holder === "" || holder === nodeId;

/** One try of recordAddress: true when the lookup now says what was seen. */
async function writeAddress(
  stores: StoresOf<"lookups" | "nodes">,
  mac: string,
  nodeId: string,
  ip: string | undefined,
  now: Date,
  claim: AddressClaim,
): Promise<boolean> {
  const stamp = now.toISOString();
  const current = await stores.lookups.byMac(mac);
  if (current && current.node === nodeId && (ip === undefined || current.ipAddress === ip)) return true;
  if (current && !mayTake(current.node, nodeId, claim)) return true;
  if (!current && claim === "unclaimed" && (await heldByAnother(stores, mac, nodeId))) return true;
  const holder = ip === undefined ? undefined : await stores.lookups.byIp(ip);
  if (holder && holder.macAddress !== mac) {
    await stores.lookups.update(holder.id, (stored) => {
      if (stored.ipAddress !== ip) return stored;
      const { ipAddress: _moved, ...rest } = stored;
      return { ...rest, updatedAt: stamp };
    });
  }
  if (current) {
    await stores.lookups.update(current.id, (stored) =>
      mayTake(stored.node, nodeId, claim) ? { ...stored, node: nodeId, ...(ip && { ipAddress: ip }), updatedAt: stamp } : stored,
    );
  } else {
    await stores.lookups.create({
      id: orderedId(now),
      node: nodeId,
      macAddress: mac,
      ...(ip && { ipAddress: ip }),
      createdAt: stamp,
      updatedAt: stamp,
    });
  }
  return true;
}

/** Whether the MAC is another node's identifier (a node made with it, whose machine has not booted yet). */
async function heldByAnother(stores: StoresOf<"nodes">, mac: string, nodeId: string): Promise<boolean> {
  const holder = await stores.nodes.find(mac);
  return holder !== undefined && holder.id !== nodeId;
}

/** The node whose lookup holds that IP (a boot request that names no node), if any. */
export async function nodeAtAddress(stores: StoresOf<"lookups">, ip: string): Promise<string | undefined> {
  const node = (await stores.lookups.byIp(ip))?.node;
  return node === "" ? undefined : node;
}

/** The node was deleted: its lookups stay, without a node (RackHD). */
export async function forgetNode(stores: StoresOf<"lookups">, nodeId: string, now: Date): Promise<void> {
  const stamp = now.toISOString();
  const lookups = await stores.lookups.forNode(nodeId);
  await Promise.all(
    lookups.map((lookup) =>
      stores.lookups.update(lookup.id, (current) => (current.node === nodeId ? { ...current, node: "", updatedAt: stamp } : current)),
    ),
  );
}
