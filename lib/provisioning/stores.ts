import { ConfigError, isDomainError } from "../errors";
import { settings } from "../config/settings";
import { processSingleton } from "../store/processSingleton";
import { MemoryNodeStore } from "./nodes/memoryNodeStore";
import type { NodeStore } from "./nodes/nodeStore";
import { MemoryWorkflowStore } from "./workflows/memoryWorkflowStore";
import type { WorkflowStore } from "./workflows/workflowStore";
import { MemoryLookupStore, type LookupStore } from "./boot/lookupStore";
import { demoNodes } from "./demoNodes";

export interface ProvisioningStores {
  nodes: NodeStore;
  workflows: WorkflowStore;
  lookups: LookupStore;
}

async function seedDemoNodes(nodes: NodeStore): Promise<void> {
  for (const node of demoNodes()) {
    try {
      await nodes.create(node);
    } catch (error) {
      // Already there (another container, or a client took the MAC): leave it as it is.
      if (!isDomainError(error)) throw error;
    }
  }
}

/** This container's provisioning stores, chosen by STORE, with the demo nodes when DEMO_NODES=on. */
export function provisioningStores(): Promise<ProvisioningStores> {
  const config = settings();
  if (config.store !== "memory") throw new ConfigError(`STORE=${config.store} is not available for provisioning yet`);
  return processSingleton("provisioningStores.memory", async () => {
    const limits = { capacity: config.memoryStoreCapacity, maxBytes: config.memoryStoreMaxBytes };
    const stores: ProvisioningStores = {
      nodes: new MemoryNodeStore(limits),
      workflows: new MemoryWorkflowStore(limits),
      lookups: new MemoryLookupStore(config.memoryStoreCapacity),
    };
    if (config.demoNodes) await seedDemoNodes(stores.nodes);
    return stores;
  });
}
