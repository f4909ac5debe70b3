import { ConflictError } from "../../errors";
import { byPosition, type Page, type PageRequest, pageOf, recordPosition } from "../../provisioning/listPage";
import { type Node, nodeFootprint } from "../../provisioning/nodes/node";
import type { NodeStore } from "../../provisioning/nodes/nodeStore";
import { Budget, type BudgetLimits } from "./budget";
import { deepFreeze } from "./deepFreeze";

/**
 * Nodes in this container's memory, with an identifier index so lookups by MAC are O(1).
 * Records are stored deeply frozen (see deepFreeze), so reads hand them out without copying.
 */
export class MemoryNodeStore implements NodeStore {
  private readonly nodes = new Map<string, Node>();
  /** Each record's footprint, so an update measures only the new version. */
  private readonly sizes = new Map<string, number>();
  private readonly byIdentifier = new Map<string, string>();
  private readonly budget: Budget;

  constructor(limits: BudgetLimits) {
    this.budget = new Budget(limits);
  }

  /** In position order (creation, ties by id) as the pages are; the map's order is nearly it, so the sort is cheap. */
  async list(): Promise<Node[]> {
    return byPosition([...this.nodes.values()], recordPosition);
  }

  async page(request: PageRequest): Promise<Page<Node>> {
    return pageOf([...this.nodes.values()], recordPosition, request);
  }

  async get(id: string): Promise<Node | undefined> {
    return this.nodes.get(id);
  }

  async find(identifier: string): Promise<Node | undefined> {
    return this.nodes.get(identifier) ?? this.nodes.get(this.byIdentifier.get(identifier) ?? "");
  }

  async create(node: Node): Promise<Node> {
    if (this.nodes.has(node.id)) throw new ConflictError(`A node with id ${node.id} already exists`);
    this.assertIdentifiersFree(node);
    const size = nodeFootprint(node);
    this.budget.reserve(1, size, "node");
    // Records are built fresh by the domain for the store and never changed after: freeze, no copy.
    const stored = deepFreeze(node);
    this.nodes.set(node.id, stored);
    this.sizes.set(node.id, size);
    for (const identifier of stored.identifiers) this.byIdentifier.set(identifier, node.id);
    return stored;
  }

  async update(id: string, change: (current: Node) => Node): Promise<Node | undefined> {
    const current = this.nodes.get(id);
    if (!current) return undefined;
    const next = deepFreeze({ ...change(current), id });
    this.assertIdentifiersFree(next);
    const size = nodeFootprint(next);
    this.budget.reserve(0, size - this.sizes.get(id)!, "node");
    this.sizes.set(id, size);
    // Only the identifiers that changed: deleting and re-inserting the same key in a V8 Map costs
    // O(size) each time once the Map is large.
    for (const identifier of current.identifiers) if (!next.identifiers.includes(identifier)) this.byIdentifier.delete(identifier);
    for (const identifier of next.identifiers) if (!current.identifiers.includes(identifier)) this.byIdentifier.set(identifier, id);
    this.nodes.set(id, next);
    return next;
  }

  async pageWithSku(skuId: string, request: PageRequest): Promise<Page<Node>> {
    return pageOf(await this.withSku(skuId), recordPosition, request);
  }

  async withSku(skuId: string): Promise<Node[]> {
    return (await this.list()).filter((node) => node.sku === skuId);
  }

  async withTag(tag: string): Promise<Node[]> {
    return (await this.list()).filter((node) => node.tags.includes(tag));
  }

  async delete(id: string): Promise<Node | undefined> {
    const node = this.nodes.get(id);
    if (!node) return undefined;
    this.nodes.delete(id);
    for (const identifier of node.identifiers) this.byIdentifier.delete(identifier);
    this.budget.release(1, this.sizes.get(id)!);
    this.sizes.delete(id);
    return node;
  }

  private assertIdentifiersFree(node: Node): void {
    for (const identifier of node.identifiers) {
      const owner = this.byIdentifier.get(identifier) ?? (this.nodes.has(identifier) ? identifier : undefined);
      if (owner !== undefined && owner !== node.id) {
        throw new ConflictError(`Identifier ${identifier} already belongs to node ${owner}`);
      }
    }
  }
}
