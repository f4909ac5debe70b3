import { NotFoundError, ValidationError } from "../../errors";
import { OBJECT_ID, orderedId } from "../ids";
import { IPV4 } from "../ipAddress";
import { normalizeMac } from "../mac";
import type { ProvisioningStores } from "../ports";
import { fitsKey } from "../recordSize";
import { type Lookup, LookupTakenError } from "./lookupStore";

/** A store's refusal of a taken MAC or IP is RackHD's 400 (a unique-field validation error). */
async function unique<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof LookupTakenError) throw new ValidationError(error.message);
    throw error;
  }
}

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
export async function findLookups(stores: ProvisioningStores, term: string | undefined): Promise<Lookup[]> {
  if (term === undefined || term === "") return stores.lookups.list();
  if (!fitsKey(term)) return [];
  if (IPV4.test(term)) return present(await stores.lookups.byIp(term));
  if (OBJECT_ID.test(term.toLowerCase())) return stores.lookups.forNode(term.toLowerCase());
  return present(await stores.lookups.byMac(normalizeMac(term) ?? term.toLowerCase()));
}

const present = (lookup: Lookup | undefined): Lookup[] => (lookup ? [lookup] : []);

export async function getLookup(stores: ProvisioningStores, id: string): Promise<Lookup> {
  const lookup = fitsKey(id) ? await stores.lookups.get(id) : undefined;
  if (!lookup) throw notFound(id);
  return lookup;
}

/** POST /lookups → 200 (RackHD); a MAC or IP another lookup has: 400. */
export async function createLookup(stores: ProvisioningStores, body: LookupFields, now: Date): Promise<Lookup> {
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
  return unique(stores.lookups.create(lookup));
}

export async function patchLookup(stores: ProvisioningStores, id: string, body: LookupFields, now: Date): Promise<Lookup> {
  await getLookup(stores, id);
  const fields = checkFields(body);
  const updated = await unique(stores.lookups.update(id, (current) => ({ ...current, ...fields, updatedAt: now.toISOString() })));
  if (!updated) throw notFound(id);
  return updated;
}

/** DELETE /lookups/{id} → 200 with the record deleted. */
export async function deleteLookup(stores: ProvisioningStores, id: string): Promise<Lookup> {
  const deleted = fitsKey(id) ? await stores.lookups.delete(id) : undefined;
  if (!deleted) throw notFound(id);
  return deleted;
}

/**
 * A machine's MAC was seen belonging to `nodeId` (discovery, a boot, a NIC in its lshw catalog),
 * at `ip` when known: its lookup is created or brought up to date, and an IP it now has is taken
 * from the lookup that had it (a DHCP address moves). No write when nothing changed.
 */
export async function recordAddress(
  stores: ProvisioningStores,
  mac: string,
  nodeId: string,
  ip: string | undefined,
  now: Date,
): Promise<void> {
  const stamp = now.toISOString();
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const current = await stores.lookups.byMac(mac);
    if (current && current.node === nodeId && (ip === undefined || current.ipAddress === ip)) return;
    const holder = ip === undefined ? undefined : await stores.lookups.byIp(ip);
    if (holder && holder.macAddress !== mac) {
      await stores.lookups.update(holder.id, ({ ipAddress: _moved, ...rest }) => ({ ...rest, updatedAt: stamp }));
    }
    try {
      if (current) {
        await stores.lookups.update(current.id, (stored) => ({ ...stored, node: nodeId, ...(ip && { ipAddress: ip }), updatedAt: stamp }));
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
      return;
    } catch (error) {
      // Another writer took the MAC or the IP in between: look again.
      if (!(error instanceof LookupTakenError)) throw error;
    }
  }
}

/** The node whose lookup holds that IP (a boot request that names no node), if any. */
export async function nodeAtAddress(stores: ProvisioningStores, ip: string): Promise<string | undefined> {
  const node = (await stores.lookups.byIp(ip))?.node;
  return node === "" ? undefined : node;
}

/** The node was deleted: its lookups stay, without a node (RackHD). */
export async function forgetNode(stores: ProvisioningStores, nodeId: string, now: Date): Promise<void> {
  const stamp = now.toISOString();
  const lookups = await stores.lookups.forNode(nodeId);
  await Promise.all(
    lookups.map((lookup) =>
      stores.lookups.update(lookup.id, (current) => (current.node === nodeId ? { ...current, node: "", updatedAt: stamp } : current)),
    ),
  );
}
