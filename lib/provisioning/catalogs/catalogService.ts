import { NotFoundError } from "../../errors";
import { findNode } from "../nodes/findNode";
import type { ProvisioningStores } from "../ports";
import { filtered } from "../queryFilters";
import { fitsKey } from "../recordSize";
import type { Catalog } from "./catalog";

/** GET /catalogs: query keys are equality filters on the record's top-level fields (`?source=dmi`, `?node=<id>`). */
export async function listCatalogs(stores: ProvisioningStores, filters: Record<string, string[]>): Promise<Catalog[]> {
  const node = filters.node?.length === 1 && fitsKey(filters.node[0]) ? filters.node[0] : undefined;
  return filtered(node === undefined ? await stores.catalogs.list() : await stores.catalogs.forNode(node), filters);
}

export async function getCatalog(stores: ProvisioningStores, id: string): Promise<Catalog> {
  const catalog = fitsKey(id) ? await stores.catalogs.get(id) : undefined;
  if (!catalog) throw new NotFoundError(`Could not find catalog with identifier ${id}`);
  return catalog;
}

export async function nodeCatalogs(stores: ProvisioningStores, identifier: string): Promise<Catalog[]> {
  const node = await findNode(stores, identifier);
  return stores.catalogs.forNode(node.id);
}

export async function nodeCatalogOfSource(stores: ProvisioningStores, identifier: string, source: string): Promise<Catalog> {
  const node = await findNode(stores, identifier);
  const catalog = fitsKey(source) ? await stores.catalogs.latest(node.id, source) : undefined;
  if (!catalog) throw new NotFoundError(`No Catalogs Found for Source (${source}).`);
  return catalog;
}
