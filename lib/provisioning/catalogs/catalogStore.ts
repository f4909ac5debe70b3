import type { Page, PageRequest } from "../listPage";
import type { Catalog } from "./catalog";

/** The port through which catalogs are kept. Every list is in creation (id) order. */
export interface CatalogStore {
  add(catalogs: readonly Catalog[]): Promise<void>;
  get(id: string): Promise<Catalog | undefined>;
  /** Every catalog. */
  list(): Promise<Catalog[]>;
  /** One page of that list, read alone (see listPage): a fleet's catalogs are ten a machine. */
  page(request: PageRequest): Promise<Page<Catalog>>;
  /** Every catalog of a node, every version. */
  forNode(nodeId: string): Promise<Catalog[]>;
  /** The node's newest catalog of that source. */
  latest(nodeId: string, source: string): Promise<Catalog | undefined>;
  /** Removes every catalog of a node (the node is deleted). */
  removeNode(nodeId: string): Promise<void>;
}
