import type { ProvisioningStores } from "../../lib/provisioning/ports";
import { DynamoCatalogStore } from "../../lib/store/dynamodb/catalogStore";
import { DynamoDefinitionStore } from "../../lib/store/dynamodb/definitionStore";
import { DynamoLookupStore } from "../../lib/store/dynamodb/lookupStore";
import { DynamoNodeStore } from "../../lib/store/dynamodb/nodeStore";
import { DynamoRecordStore } from "../../lib/store/dynamodb/recordStore";
import { DynamoWorkflowStore } from "../../lib/store/dynamodb/workflowStore";
import { MemoryCatalogStore } from "../../lib/store/memory/catalogStore";
import { MemoryDefinitionStore } from "../../lib/store/memory/definitionStore";
import { MemoryLookupStore } from "../../lib/store/memory/lookupStore";
import { MemoryNodeStore } from "../../lib/store/memory/nodeStore";
import { MemoryRecordStore } from "../../lib/store/memory/recordStore";
import { MemoryWorkflowStore } from "../../lib/store/memory/workflowStore";
import { freshTable, testDocumentClient } from "./dynamoTables";

export type Stores = ProvisioningStores;

const limits = { capacity: 100_000, maxBytes: 1 << 28 };

/** Both adapters of the provisioning ports, each on a new empty store (DynamoDB: a fresh table in DynamoDB Local). */
export const provisioningAdapters: [string, () => Promise<Stores>][] = [
  [
    "memory",
    async () => ({
      nodes: new MemoryNodeStore(limits),
      workflows: new MemoryWorkflowStore(limits),
      lookups: new MemoryLookupStore(limits),
      definitions: new MemoryDefinitionStore(limits),
      catalogs: new MemoryCatalogStore(limits),
      skus: new MemoryRecordStore(limits, "SKU"),
      tags: new MemoryRecordStore(limits, "tag"),
      config: new MemoryRecordStore(limits, "config"),
    }),
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
        definitions: new DynamoDefinitionStore(client, table),
        catalogs: new DynamoCatalogStore(client, table),
        skus: new DynamoRecordStore(client, table, "SKU"),
        tags: new DynamoRecordStore(client, table, "TAG"),
        config: new DynamoRecordStore(client, table, "CONFIG"),
      };
    },
  ],
];
