import { NotFoundError } from "../../errors";
import { filteredPage, type Page, type PageRequest, pageOf, recordPosition } from "../listPage";
import { findNode } from "../nodes/findNode";
import type { StoresOf } from "../ports";
import { filtered } from "../queryFilters";
import { fitsKey } from "../recordSize";
import type { Catalog } from "./catalog";

/** GET /catalogs: query keys are equality filters on the record's top-level fields (`?source=dmi`, `?node=<id>`). */
export async function listCatalogs(stores: StoresOf<"catalogs">, filters: Record<string, string[]>): Promise<Catalog[]> {
  const node = filters.node?.length === 1 && fitsKey(filters.node[0]) ? filters.node[0] : undefined;
  return filtered(node === undefined ? await stores.catalogs.list() : await stores.catalogs.forNode(node), filters);
}

/**
 * A page of that list, read alone: a node's catalogs (a few) from its own list, every catalog a
 * page of the fleet's list with the filters applied to at most FILTER_READ_CAP catalogs read.
 */
export async function listCatalogsPage(
  stores: StoresOf<"catalogs">,
  filters: Record<string, string[]>,
  request: PageRequest,
): Promise<Page<Catalog>> {
  const node = filters.node?.length === 1 && fitsKey(filters.node[0]) ? filters.node[0] : undefined;
  if (node !== undefined) return pageOf(filtered(await stores.catalogs.forNode(node), filters), recordPosition, request);
  return filteredPage(
    (part) => stores.catalogs.page(part),
    (catalog) => filtered([catalog], filters).length === 1,
    recordPosition,
    request,
  );
}

export async function getCatalog(stores: StoresOf<"catalogs">, id: string): Promise<Catalog> {
  const catalog = fitsKey(id) ? await stores.catalogs.get(id) : undefined;
  if (!catalog) throw new NotFoundError(`Could not find catalog with identifier ${id}`);
  return catalog;
}

export async function nodeCatalogs(stores: StoresOf<"catalogs" | "lookups" | "nodes">, identifier: string): Promise<Catalog[]> {
  const node = await findNode(stores, identifier);
  return stores.catalogs.forNode(node.id);
}

export async function nodeCatalogOfSource(
  stores: StoresOf<"catalogs" | "lookups" | "nodes">,
  identifier: string,
  source: string,
): Promise<Catalog> {
  const node = await findNode(stores, identifier);
  const catalog = fitsKey(source) ? await stores.catalogs.latest(node.id, source) : undefined;
  if (!catalog) throw new NotFoundError(`No Catalogs Found for Source (${source}).`);
  return catalog;
}
