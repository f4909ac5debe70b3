import type { Node } from "../nodes/node";
import type { StoresOf } from "../ports";
import { rulesPass, sourcesOf } from "../rules/rules";
import { latestCatalogs } from "../skus/skuMatching";
import type { Tag } from "./tag";

/**
 * RackHD's generate-tag: every tag with at least one rule, all passing on the node's latest
 * catalogs, is added to `node.tags` (never removed: tags set by hand stay).
 */
export async function applyTags(stores: StoresOf<"catalogs" | "nodes">, node: Node, tags: readonly Tag[], now: Date): Promise<Node> {
  const ruled = tags.filter((tag) => tag.rules.length > 0);
  if (ruled.length === 0) return node;
  const catalogs = await latestCatalogs(stores, node.id, sourcesOf(ruled.flatMap((tag) => tag.rules)));
  const names = ruled.filter((tag) => rulesPass(tag.rules, catalogs)).map((tag) => tag.name);
  return addTags(stores, node, names, now);
}

/** Adds names to the node's tags (a set); no write when it has them all. */
export async function addTags(stores: StoresOf<"nodes">, node: Node, names: readonly string[], now: Date): Promise<Node> {
  const missing = (current: Node) => names.filter((name, i) => !current.tags.includes(name) && names.indexOf(name) === i);
  if (missing(node).length === 0) return node;
  const stamp = now.toISOString();
  const add = (current: Node) => {
    const added = missing(current);
    return added.length === 0 ? current : { ...current, tags: [...current.tags, ...added], updatedAt: stamp };
  };
  return (await stores.nodes.update(node.id, add, node)) ?? node;
}
