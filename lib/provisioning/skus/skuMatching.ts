import type { Node } from "../nodes/node";
import type { StoresOf } from "../ports";
import { depthOf, type Rule, rulesPass, sourcesOf } from "../rules/rules";
import type { Sku } from "./sku";

/** The node's latest catalog of each source, as `{source: data}` (one read per source). */
export async function latestCatalogs(
  stores: StoresOf<"catalogs">,
  nodeId: string,
  sources: readonly string[],
): Promise<Record<string, unknown>> {
  const found = await Promise.all(sources.map((source) => stores.catalogs.latest(nodeId, source)));
  return Object.fromEntries(found.flatMap((catalog) => (catalog ? [[catalog.source, catalog.data]] : [])));
}

/**
 * RackHD's generate-sku (§4.3): every SKU whose rules all pass matches (no rules: matches all);
 * the deepest rule path wins, ties going to the newest SKU. Null when none matches.
 */
export function chooseSku(skus: readonly Sku[], catalogs: Readonly<Record<string, unknown>>): Sku | null {
  const matching = skus.filter((sku) => rulesPass(sku.rules, catalogs));
  const ordered = [...matching]
    .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1))
    .sort((a, b) => depthOf(a.rules) - depthOf(b.rules));
  return ordered.at(-1) ?? null;
}

/** Sets the node's `sku` from its catalogs; answers the node as stored. */
export async function assignSku(stores: StoresOf<"catalogs" | "nodes">, node: Node, skus: readonly Sku[], now: Date): Promise<Node> {
  const catalogs = await latestCatalogs(stores, node.id, sourcesOf(skus.flatMap((sku): Rule[] => sku.rules)));
  const sku = chooseSku(skus, catalogs)?.id ?? null;
  if (node.sku === sku) return node;
  const stamp = now.toISOString();
  return (
    (await stores.nodes.update(node.id, (current) => (current.sku === sku ? current : { ...current, sku, updatedAt: stamp }), node)) ?? node
  );
}

/** How many nodes are matched at once (each costs a read per catalog source). */
const PARALLEL = 8;

/** After a SKU is created, changed or deleted: every node's `sku` again (RackHD re-ran generate-sku on all). */
export async function reassignAllSkus(stores: StoresOf<"catalogs" | "nodes" | "skus">, now: Date): Promise<void> {
  const [skus, nodes] = await Promise.all([stores.skus.list(), stores.nodes.list()]);
  for (let at = 0; at < nodes.length; at += PARALLEL) {
    await Promise.all(nodes.slice(at, at + PARALLEL).map((node) => assignSku(stores, node, skus, now)));
  }
}
