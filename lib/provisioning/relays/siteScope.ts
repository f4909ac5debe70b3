import { ForbiddenError, isDomainError, NotFoundError } from "../../errors";
import type { Page } from "../listPage";
import type { Node } from "../nodes/node";
import type { NodeStore } from "../nodes/nodeStore";
import type { ProvisioningStores } from "../ports";

/**
 * What a boot request may see (issue 35 §1): a request a site's relay forwarded sees the nodes of
 * that site and no other; a request no relay forwarded (allowed only where BOOT_VIA_RELAY is off)
 * sees every node, as RackHD's boot routes did. The scope is applied to the node store itself, so
 * every boot, template, seed, report and log route finds another site's machine exactly as it
 * finds a machine that does not exist: a 404 that says nothing about it.
 */
export interface BootScope {
  /** The site of the relay that forwarded the request; undefined when none did. */
  site?: string;
}

/** The answer for a node outside the scope: the words of a node that does not exist, naming nothing. */
export const OUT_OF_SCOPE = "Not Found";

const hiddenMarker = Symbol("out of scope");

/** The stores as a request of `scope` sees them: only the nodes store is narrowed (every other record is reached through a node). */
export function scopedStores(stores: ProvisioningStores, scope: BootScope): ProvisioningStores {
  if (scope.site === undefined) return stores;
  return { ...stores, nodes: siteNodes(stores.nodes, scope.site) };
}

/** A node store that holds only `site`'s nodes: the others are absent, and cannot be made, changed or removed. */
export function siteNodes(inner: NodeStore, site: string): NodeStore {
  const only = (other: string | undefined) => other === site;
  return scopedNodes(inner, { acts: only, sees: only }, site);
}

/**
 * Which machines a caller may act on (`acts`) and know of (`sees`), by their site (undefined: a
 * machine of no site). Issue 55: an operator's grants on named sites.
 */
export interface NodeSites {
  acts: (site: string | undefined) => boolean;
  sees: (site: string | undefined) => boolean;
}

/** The site a node is of (PUT /nodes/{identifier}/site), if any. */
const siteOf = (node: Node): string | undefined => (typeof node.site === "string" ? node.site : undefined);

/** What a caller asking for a machine it may see but not act on is told. */
export const NOT_YOURS = "Your role does not allow this on this node's site";

/**
 * A node store narrowed to the machines `sites` lets the caller act on: one it may not know of is
 * absent (a 404 that says nothing about it), one it may know of but not act on is a 403; lists
 * hold only those it may act on. What it makes is made in `createIn` when given.
 */
export function scopedNodes(inner: NodeStore, sites: NodeSites, createIn?: string): NodeStore {
  const visible = (node: Node | undefined): Node | undefined => {
    if (node === undefined || sites.acts(siteOf(node))) return node;
    if (sites.sees(siteOf(node))) throw new ForbiddenError(NOT_YOURS);
    return undefined;
  };
  const only = (nodes: Node[]): Node[] => nodes.filter((node) => sites.acts(siteOf(node)));
  const onlyOn = async (page: Promise<Page<Node>>): Promise<Page<Node>> => {
    const read = await page;
    return { ...read, items: only(read.items) };
  };
  return {
    list: async () => only(await inner.list()),
    page: (request) => onlyOn(inner.page(request)),
    get: async (id) => visible(await inner.get(id)),
    find: async (identifier) => visible(await inner.find(identifier)),
    create: async (node) => {
      if (createIn === undefined) return inner.create(node);
      const site = createIn;
      try {
        return await inner.create({ ...node, site });
      } catch (error) {
        // Another site's machine holds one of these identifiers: as if nothing were there to find.
        if (isDomainError(error) && error.kind === "conflict" && (await heldElsewhere(inner, node, site)))
          throw new NotFoundError(OUT_OF_SCOPE);
        throw error;
      }
    },
    update: async (id, change, known) => {
      if (known && visible(known) === undefined) return undefined;
      try {
        return await inner.update(
          id,
          (current) => {
            if (visible(current) === undefined) throw hiddenMarker;
            return change(current);
          },
          known,
        );
      } catch (error) {
        if (error === hiddenMarker) return undefined;
        throw error;
      }
    },
    withSku: async (sku) => only(await inner.withSku(sku)),
    pageWithSku: (sku, request) => onlyOn(inner.pageWithSku(sku, request)),
    withTag: async (tag) => only(await inner.withTag(tag)),
    delete: async (id, known) => {
      const current = visible(known ?? (await inner.get(id)));
      return current ? inner.delete(id, current) : undefined;
    },
  };
}

async function heldElsewhere(inner: NodeStore, node: Node, site: string): Promise<boolean> {
  for (const identifier of [node.id, ...node.identifiers]) {
    const holder = (await inner.get(identifier)) ?? (await inner.find(identifier));
    if (holder && holder.site !== site) return true;
  }
  return false;
}
