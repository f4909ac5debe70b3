import type { Catalog } from "../../provisioning/catalogs/catalog";
import type { CatalogStore } from "../../provisioning/catalogs/catalogStore";
import { type Page, type PageRequest, pageOf, recordPosition } from "../../provisioning/listPage";
import { Budget, type BudgetLimits } from "./budget";
import { deepFreeze } from "./deepFreeze";

const footprint = (catalog: Catalog): number => 2 * JSON.stringify(catalog).length + 128;

/** Catalogs in this container's memory, by id and by node (ids sort in creation order). */
export class MemoryCatalogStore implements CatalogStore {
  private readonly byId = new Map<string, Catalog>();
  private readonly byNode = new Map<string, string[]>();
  private readonly budget: Budget;

  constructor(limits: BudgetLimits) {
    this.budget = new Budget(limits);
  }

  async add(catalogs: readonly Catalog[]): Promise<void> {
    this.budget.reserve(
      catalogs.length,
      catalogs.reduce((sum, catalog) => sum + footprint(catalog), 0),
      "catalog",
    );
    for (const catalog of catalogs) {
      const stored = deepFreeze(structuredClone(catalog));
      this.byId.set(stored.id, stored);
      const ids = this.byNode.get(stored.node) ?? [];
      ids.push(stored.id);
      this.byNode.set(stored.node, ids);
    }
  }

  async get(id: string): Promise<Catalog | undefined> {
    return this.byId.get(id);
  }

  async list(): Promise<Catalog[]> {
    return [...this.byId.values()].sort(byId);
  }

  async page(request: PageRequest): Promise<Page<Catalog>> {
    return pageOf([...this.byId.values()], recordPosition, request);
  }

  async forNode(nodeId: string): Promise<Catalog[]> {
    return (this.byNode.get(nodeId) ?? []).map((id) => this.byId.get(id)!).sort(byId);
  }

  async latest(nodeId: string, source: string): Promise<Catalog | undefined> {
    return (await this.forNode(nodeId)).filter((catalog) => catalog.source === source).pop();
  }

  async removeNode(nodeId: string): Promise<void> {
    const removed = (this.byNode.get(nodeId) ?? []).map((id) => this.byId.get(id)!);
    for (const catalog of removed) this.byId.delete(catalog.id);
    this.byNode.delete(nodeId);
    this.budget.release(
      removed.length,
      removed.reduce((sum, catalog) => sum + footprint(catalog), 0),
    );
  }
}

const byId = (a: Catalog, b: Catalog): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
