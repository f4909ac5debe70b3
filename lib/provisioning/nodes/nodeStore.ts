import type { Page, PageRequest } from "../listPage";
import type { Node } from "./node";

/**
 * The port through which the provisioning domain keeps nodes (OBM settings live on the node).
 * Every method is asynchronous, so a shared store can replace the memory one. Uniqueness (ids,
 * and each identifier belonging to one node only) is the store's to enforce: a shared store
 * must enforce it against concurrent writers.
 */
export interface NodeStore {
  /** Every node in creation order. */
  list(): Promise<Node[]>;
  /** One page of that list, read alone: its cost does not grow with the number of nodes (see listPage). */
  page(request: PageRequest): Promise<Page<Node>>;
  get(id: string): Promise<Node | undefined>;
  /** The node whose id, or one of whose identifiers (e.g. a MAC), is `identifier`. */
  find(identifier: string): Promise<Node | undefined>;
  /** Stores a new node; ConflictError when its id or one of its identifiers is taken. */
  create(node: Node): Promise<Node>;
  /**
   * Applies `change` to the current node and stores the result atomically (a concurrent update
   * of another field is never lost). Undefined when the node does not exist; errors thrown by
   * `change` propagate and store nothing; ConflictError when a new identifier is taken. `known`,
   * the node as this store last answered it, lets a shared store skip reading it again.
   */
  update(id: string, change: (current: Node) => Node, known?: Node): Promise<Node | undefined>;
  /** The nodes whose `sku` is that SKU's id, in creation order. */
  withSku(skuId: string): Promise<Node[]>;
  /** One page of them, read alone (a SKU may hold a fleet). */
  pageWithSku(skuId: string, request: PageRequest): Promise<Page<Node>>;
  /** The nodes whose `tags` hold that tag, in creation order. */
  withTag(tag: string): Promise<Node[]>;
  /** Removes the node and answers it; undefined when it did not exist. `known` as for update. */
  delete(id: string, known?: Node): Promise<Node | undefined>;
}
