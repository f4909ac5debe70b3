import type { LookupStore } from "./boot/lookupStore";
import type { NodeStore } from "./nodes/nodeStore";
import type { WorkflowStore } from "./workflows/workflowStore";

/** The stores the provisioning domain works through; the composition root picks their adapters. */
export interface ProvisioningStores {
  nodes: NodeStore;
  workflows: WorkflowStore;
  lookups: LookupStore;
}
