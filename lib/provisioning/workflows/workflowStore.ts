import type { Page, PageRequest } from "../listPage";
import type { Workflow } from "../workflowEngine/workflow";

/**
 * The port through which workflows are kept. A node has at most one active (running) workflow:
 * the store enforces it, against concurrent writers too.
 */
export interface WorkflowStore {
  /** Stores a new workflow; ConflictError when its node already has an active one. */
  create(workflow: Workflow): Promise<Workflow>;
  /** By instanceId or by record id. */
  get(id: string): Promise<Workflow | undefined>;
  /**
   * Applies `change` to the current record atomically; answers the stored record (the same one
   * when `change` returned its argument unchanged), or undefined when there is none. `known`, the
   * record as this store last answered it, lets a shared store skip reading it again (it still
   * applies `change` to the newer record if another writer came first).
   */
  update(instanceId: string, change: (current: Workflow) => Workflow, known?: Workflow): Promise<Workflow | undefined>;
  /** Every workflow in creation order. */
  list(): Promise<Workflow[]>;
  /** A node's workflows in creation order. */
  listForNode(nodeId: string): Promise<Workflow[]>;
  /** One page of every workflow, read alone (see listPage). */
  page(request: PageRequest): Promise<Page<Workflow>>;
  /** One page of a node's workflows, read alone. */
  pageForNode(nodeId: string, request: PageRequest): Promise<Page<Workflow>>;
  activeForNode(nodeId: string): Promise<Workflow | undefined>;
}
