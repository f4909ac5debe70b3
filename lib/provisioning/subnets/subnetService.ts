import { ConflictError, NotFoundError } from "../../errors";
import { newObjectId } from "../ids";
import type { Page, PageRequest } from "../listPage";
import type { StoresOf } from "../ports";
import { fitsKey } from "../recordSize";
import { getSite } from "../relays/siteService";
import type { AddressAllocation } from "./addressStore";
import { checkSubnet, poolSize, type Subnet, type SubnetFields } from "./subnet";

/** A subnet as answered: the record, and how many addresses its pools hold. */
export type SubnetView = Subnet & { poolSize: string };

export const viewSubnet = (subnet: Subnet): SubnetView => ({ ...subnet, poolSize: poolSize(subnet).toString() });

/** The other subnets of the same site (or of no site), which a subnet may not overlap. */
const siblingsOf = async (stores: StoresOf<"subnets">, site: string | undefined, id?: string): Promise<Subnet[]> =>
  (await stores.subnets.list()).filter((subnet) => subnet.site === site && subnet.id !== id);

/** The fields as kept: absent where a client set null, defaults for the lists. */
function merged(current: Omit<Subnet, "id" | "createdAt" | "updatedAt">, fields: SubnetFields) {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(fields)) {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  }
  return next as unknown as Omit<Subnet, "id" | "createdAt" | "updatedAt">;
}

export async function createSubnet(
  stores: StoresOf<"sites" | "subnets">,
  fields: SubnetFields & { name: string; cidr: string },
  now: Date,
) {
  if (typeof fields.site === "string") await getSite(stores, fields.site);
  const base = { name: fields.name, cidr: fields.cidr, nameservers: [], searchDomains: [], ranges: [] };
  const subnet = checkSubnet(merged(base, fields), await siblingsOf(stores, fields.site ?? undefined));
  const stamp = now.toISOString();
  return viewSubnet(await stores.subnets.create({ ...subnet, id: newObjectId(now), createdAt: stamp, updatedAt: stamp }));
}

export async function findSubnet(stores: StoresOf<"subnets">, id: string): Promise<Subnet> {
  const subnet = fitsKey(id) ? await stores.subnets.get(id) : undefined;
  if (!subnet) throw new NotFoundError(`Could not find subnet ${id.slice(0, 64)}`);
  return subnet;
}

export const getSubnet = async (stores: StoresOf<"subnets">, id: string) => viewSubnet(await findSubnet(stores, id));

/** Every subnet, oldest first; `site` keeps one site's. */
export async function listSubnets(stores: StoresOf<"subnets">, site?: string): Promise<SubnetView[]> {
  const all = await stores.subnets.list();
  return all.filter((subnet) => site === undefined || subnet.site === site).map(viewSubnet);
}

/**
 * A change: checked whole again. A CIDR or a range that would leave a given address outside the
 * subnet or outside the pools is refused while the address is given (release it first).
 */
export async function patchSubnet(stores: StoresOf<"addresses" | "sites" | "subnets">, id: string, fields: SubnetFields, now: Date) {
  const current = await findSubnet(stores, id);
  if (typeof fields.site === "string") await getSite(stores, fields.site);
  const { id: _id, createdAt, updatedAt: _u, ...rest } = current;
  const next = merged(rest, fields);
  const checked = checkSubnet(next, await siblingsOf(stores, next.site, id));
  if (fields.cidr !== undefined || fields.ranges !== undefined || fields.site !== undefined) {
    const given = await stores.addresses.pageOfSubnet(id, { limit: 1 });
    if (given.items.length > 0) {
      throw new ConflictError(
        `Subnet ${id} has given addresses (${given.items[0].address} to node ${given.items[0].node}): its cidr, ranges and site stay until they are freed`,
      );
    }
  }
  const updated = await stores.subnets.update(id, () => ({ ...checked, id, createdAt, updatedAt: now.toISOString() }));
  if (!updated) throw new NotFoundError(`Could not find subnet ${id}`);
  return viewSubnet(updated);
}

/** Refused while an address of it is given: the node's plan would name a subnet that is not there. */
export async function deleteSubnet(stores: StoresOf<"addresses" | "subnets">, id: string): Promise<Subnet> {
  const subnet = await findSubnet(stores, id);
  const given = await stores.addresses.pageOfSubnet(id, { limit: 1 });
  if (given.items.length > 0)
    throw new ConflictError(`Subnet ${id} has given addresses: free them (release the nodes or change their plans) first`);
  await stores.subnets.delete(id);
  return subnet;
}

/** The subnet's given addresses in address order, a page at a time. */
export async function subnetAddresses(
  stores: StoresOf<"addresses" | "subnets">,
  id: string,
): Promise<{ page: (request: PageRequest) => Promise<Page<AddressAllocation>>; all: () => Promise<AddressAllocation[]> }> {
  await findSubnet(stores, id);
  const page = (request: PageRequest) => stores.addresses.pageOfSubnet(id, request);
  const all = async () => {
    const items: AddressAllocation[] = [];
    let after: string | undefined;
    do {
      const read = await page({ limit: 1000, ...(after !== undefined && { after }) });
      items.push(...read.items);
      after = read.next;
    } while (after !== undefined);
    return items;
  };
  return { page, all };
}
