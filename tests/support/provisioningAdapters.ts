import type { ProvisioningStores } from "../../lib/provisioning/ports";
import { DynamoLookupStore } from "../../lib/store/dynamodb/lookupStore";
import { DynamoNodeStore } from "../../lib/store/dynamodb/nodeStore";
import { DynamoWorkflowStore } from "../../lib/store/dynamodb/workflowStore";
import { MemoryLookupStore } from "../../lib/store/memory/lookupStore";
import { MemoryNodeStore } from "../../lib/store/memory/nodeStore";
import { MemoryWorkflowStore } from "../../lib/store/memory/workflowStore";
import { freshTable, testDocumentClient } from "./dynamoTables";

export type Stores = ProvisioningStores;

const limits = { capacity: 100_000, maxBytes: 1 << 28 };

/** Both adapters of the provisioning ports, each on a new empty store (DynamoDB: a fresh table in DynamoDB Local). */
export const provisioningAdapters: [string, () => Promise<Stores>][] = [
  [
    "memory",
    async () => ({ nodes: new MemoryNodeStore(limits), workflows: new MemoryWorkflowStore(limits), lookups: new MemoryLookupStore(1000) }),
  ],
  [
    "dynamodb",
    async () => {
      const table = await freshTable("prov");
      const client = testDocumentClient();
      return {
        nodes: new DynamoNodeStore(client, table),
        workflows: new DynamoWorkflowStore(client, table),
        lookups: new DynamoLookupStore(client, table),
      };
    },
  ],
];
