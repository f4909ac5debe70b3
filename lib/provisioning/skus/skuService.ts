import { NotFoundError, ValidationError } from "../../errors";
import { isPlainObject } from "../../json";
import { orderedId } from "../ids";
import type { Page, PageRequest } from "../listPage";
import type { Node } from "../nodes/node";
import type { StoresOf } from "../ports";
import { filtered } from "../queryFilters";
import { assertRecordFits, fitsKey } from "../recordSize";
import { checkRules } from "../rules/rules";
import { keepRedactedSecrets } from "../secrets";
import type { Sku } from "./sku";
import { reassignAllSkus } from "./skuMatching";

const OWN_KEYS = new Set(["id", "createdAt", "updatedAt"]);

/** The fields a client may set: everything but id and times; name, rules and the graph fields checked. */
function skuFields(body: Record<string, unknown>, partial: boolean): Record<string, unknown> {
  const fields = Object.fromEntries(Object.entries(body).filter(([key]) => !OWN_KEYS.has(key)));
  if (!partial || "name" in fields) {
    if (typeof fields.name !== "string" || fields.name === "") throw new ValidationError("name (string) is required");
  }
  if (!partial || "rules" in fields) checkRules(fields.rules, "SKU");
  if (fields.discoveryGraphName !== undefined && typeof fields.discoveryGraphName !== "string") {
    throw new ValidationError("discoveryGraphName must be a graph name");
  }
  if (fields.discoveryGraphOptions !== undefined && !isPlainObject(fields.discoveryGraphOptions)) {
    throw new ValidationError("discoveryGraphOptions must be an object");
  }
  return fields;
}

const notFound = (id: string) => new NotFoundError(`Could not find sku with identifier ${id}`);

/** GET /skus: equality filters on top-level fields, as RackHD's `find(req.query)`. */
export async function listSkus(stores: StoresOf<"skus">, filters: Record<string, string[]>): Promise<Sku[]> {
  return filtered(await stores.skus.list(), filters);
}

export async function getSku(stores: StoresOf<"skus">, id: string): Promise<Sku> {
  const sku = fitsKey(id) ? await stores.skus.get(id) : undefined;
  if (!sku) throw notFound(id);
  return sku;
}

export async function skuNodes(stores: StoresOf<"nodes" | "skus">, id: string): Promise<Node[]> {
  await getSku(stores, id);
  return stores.nodes.withSku(id);
}

/** A page of that list, read alone (404 for a SKU that does not exist, first). */
export async function skuNodesPage(stores: StoresOf<"nodes" | "skus">, id: string, request: PageRequest): Promise<Page<Node>> {
  await getSku(stores, id);
  return stores.nodes.pageWithSku(id, request);
}

/** POST /skus → 200 (RackHD); then every node is matched again, before the answer. */
export async function createSku(stores: StoresOf<"catalogs" | "nodes" | "skus">, body: Record<string, unknown>, now: Date): Promise<Sku> {
  const stamp = now.toISOString();
  const sku = { ...skuFields(body, false), id: orderedId(now), createdAt: stamp, updatedAt: stamp } as Sku;
  assertRecordFits(sku, "SKU");
  const created = await stores.skus.create(sku);
  await reassignAllSkus(stores, now);
  return created;
}

export async function patchSku(
  stores: StoresOf<"catalogs" | "nodes" | "skus">,
  id: string,
  body: Record<string, unknown>,
  now: Date,
): Promise<Sku> {
  await getSku(stores, id);
  const fields = skuFields(body, true);
  const updated = await stores.skus.update(id, (current) => {
    // A SKU echoed back with its redacted secrets keeps the stored ones.
    const options = keepRedactedSecrets(fields.discoveryGraphOptions, current.discoveryGraphOptions) as Sku["discoveryGraphOptions"];
    const next: Sku = {
      ...current,
      ...fields,
      ...(options !== undefined && { discoveryGraphOptions: options }),
      updatedAt: now.toISOString(),
    };
    assertRecordFits(next, "SKU");
    return next;
  });
  if (!updated) throw notFound(id);
  await reassignAllSkus(stores, now);
  return updated;
}

/** DELETE /skus/{id} → 204; nodes of that SKU are matched again (to another SKU, or null). */
export async function deleteSku(stores: StoresOf<"catalogs" | "nodes" | "skus">, id: string, now: Date): Promise<void> {
  const deleted = fitsKey(id) ? await stores.skus.delete(id) : undefined;
  if (!deleted) throw notFound(id);
  await reassignAllSkus(stores, now);
}
