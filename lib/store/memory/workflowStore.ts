import { ConflictError } from "../../errors";
import { byPosition, type Page, type PageRequest, pageOf } from "../../provisioning/listPage";
import { ACTIVE_CONFLICT, isActive, type Workflow, workflowFootprint, workflowPosition } from "../../provisioning/workflowEngine/workflow";
import type { WorkflowStore } from "../../provisioning/workflows/workflowStore";
import { Budget, type BudgetLimits } from "./budget";
import { deepFreeze } from "./deepFreeze";

/** Workflows in this container's memory, indexed by record id, by node and by active node. */
export class MemoryWorkflowStore implements WorkflowStore {
  private readonly workflows = new Map<string, Workflow>();
  /** Each record's footprint, so an update measures only the new version. */
  private readonly sizes = new Map<string, number>();
  private readonly byRecordId = new Map<string, string>();
  private readonly byNode = new Map<string, string[]>();
  private readonly activeByNode = new Map<string, string>();
  private readonly budget: Budget;

  constructor(limits: BudgetLimits) {
    this.budget = new Budget(limits);
  }

  async create(workflow: Workflow): Promise<Workflow> {
    if (isActive(workflow) && this.activeByNode.has(workflow.node)) throw new ConflictError(ACTIVE_CONFLICT);
    const size = workflowFootprint(workflow);
    this.budget.reserve(1, size, "workflow");
    // Records are built fresh by the domain for the store and never changed after: freeze, no copy.
    const stored = deepFreeze(workflow);
    this.sizes.set(stored.instanceId, size);
    this.workflows.set(stored.instanceId, stored);
    this.byRecordId.set(stored.id, stored.instanceId);
    const forNode = this.byNode.get(stored.node);
    if (forNode) forNode.push(stored.instanceId);
    else this.byNode.set(stored.node, [stored.instanceId]);
    if (isActive(stored)) this.activeByNode.set(stored.node, stored.instanceId);
    return stored;
  }

  async get(id: string): Promise<Workflow | undefined> {
    return this.workflows.get(id) ?? this.workflows.get(this.byRecordId.get(id) ?? "");
  }

  async update(instanceId: string, change: (current: Workflow) => Workflow): Promise<Workflow | undefined> {
    const current = this.workflows.get(instanceId);
    if (!current) return undefined;
    const changed = change(current);
    if (changed === current) return current;
    const next = deepFreeze({ ...changed, instanceId, id: current.id, node: current.node });
    const size = workflowFootprint(next);
    this.budget.reserve(0, size - this.sizes.get(instanceId)!, "workflow");
    this.sizes.set(instanceId, size);
    this.workflows.set(instanceId, next);
    if (isActive(next)) this.activeByNode.set(next.node, instanceId);
    else if (this.activeByNode.get(next.node) === instanceId) this.activeByNode.delete(next.node);
    return next;
  }

  /** In position order (creation, ties by id) as the pages are; the map's order is nearly it, so the sort is cheap. */
  async list(): Promise<Workflow[]> {
    return byPosition([...this.workflows.values()], workflowPosition);
  }

  async listForNode(nodeId: string): Promise<Workflow[]> {
    return byPosition(
      (this.byNode.get(nodeId) ?? []).map((id) => this.workflows.get(id)!),
      workflowPosition,
    );
  }

  async page(request: PageRequest): Promise<Page<Workflow>> {
    return pageOf([...this.workflows.values()], workflowPosition, request);
  }

  async pageForNode(nodeId: string, request: PageRequest): Promise<Page<Workflow>> {
    return pageOf(await this.listForNode(nodeId), workflowPosition, request);
  }

  async activeForNode(nodeId: string): Promise<Workflow | undefined> {
    const id = this.activeByNode.get(nodeId);
    return id === undefined ? undefined : this.workflows.get(id);
  }
}
