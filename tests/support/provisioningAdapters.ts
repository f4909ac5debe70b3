import type { ProvisioningStores } from "../../lib/provisioning/ports";
import { dynamoProvisioningStores } from "../../lib/store/dynamodb/provisioningStores";
import { memoryProvisioningStores } from "../../lib/store/memory/provisioningStores";
import { freshTable, testDocumentClient, testFileBlobs } from "./dynamoTables";

export type Stores = ProvisioningStores;

const limits = { capacity: 100_000, maxBytes: 1 << 28 };

/** Both adapters of the provisioning ports, each on a new empty store (DynamoDB: a fresh table in DynamoDB Local, and a fresh bucket in the local S3 server). */
export const provisioningAdapters: [string, () => Promise<Stores>][] = [
  ["memory", async () => memoryProvisioningStores(limits)],
  [
    "dynamodb",
    async () => {
      const fileBlobs = await testFileBlobs();
      return dynamoProvisioningStores(testDocumentClient(), await freshTable("prov"), () => fileBlobs);
    },
  ],
];
