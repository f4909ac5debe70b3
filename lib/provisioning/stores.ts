import { isDomainError } from "../errors";
import { logLine } from "../http/logger";
import { settings, type Settings } from "../config/settings";
import { processSingleton, resetProcessSingleton } from "../store/processSingleton";
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
      // Already there (another container, or a client took the MAC): leave it as it is. Any other
      // failure (a function whose role may only read, say) costs the demo node, not the request.
      if (!isDomainError(error)) logLine({ level: "warn", msg: "could not create a demo node", error: (error as Error).message });
    }
  }
}

function memoryStores(config: Settings): ProvisioningStores {
  const limits = { capacity: config.memoryStoreCapacity, maxBytes: config.memoryStoreMaxBytes };
  return {
    nodes: new MemoryNodeStore(limits),
    workflows: new MemoryWorkflowStore(limits),
    lookups: new MemoryLookupStore(config.memoryStoreCapacity),
  };
}

function dynamoStores(config: Settings): ProvisioningStores {
  // Loaded only in this mode, so memory-mode containers never load the AWS SDK.
  const { documentClient } = require("../store/dynamodb/client") as typeof import("../store/dynamodb/client");
  const { DynamoNodeStore } = require("./nodes/dynamoNodeStore") as typeof import("./nodes/dynamoNodeStore");
  const { DynamoWorkflowStore } = require("./workflows/dynamoWorkflowStore") as typeof import("./workflows/dynamoWorkflowStore");
  const { DynamoLookupStore } = require("./boot/dynamoLookupStore") as typeof import("./boot/dynamoLookupStore");
  const client = documentClient(config);
  return {
    nodes: new DynamoNodeStore(client, config.dynamodbTable),
    workflows: new DynamoWorkflowStore(client, config.dynamodbTable),
    lookups: new DynamoLookupStore(client, config.dynamodbTable),
  };
}

/** This container's provisioning stores, chosen by STORE, with the demo nodes when DEMO_NODES=on. */
export function provisioningStores(): Promise<ProvisioningStores> {
  const config = settings();
  const key = config.store === "dynamodb" ? `provisioningStores.dynamodb.${config.dynamodbTable}` : "provisioningStores.memory";
  return processSingleton(key, () => {
    const ready = (async () => {
      const stores = config.store === "dynamodb" ? dynamoStores(config) : memoryStores(config);
      if (config.demoNodes) await seedDemoNodes(stores.nodes);
      return stores;
    })();
    // A failed start (the table unreachable, say) must not stick: the next request tries again.
    ready.catch(() => resetProcessSingleton(key));
    return ready;
  });
}
