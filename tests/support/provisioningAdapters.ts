import type { ProvisioningStores } from "../../lib/provisioning/ports";
import { dynamoProvisioningStores } from "../../lib/store/dynamodb/provisioningStores";
import { memoryProvisioningStores } from "../../lib/store/memory/provisioningStores";
import { freshTable, testDocumentClient } from "./dynamoTables";

export type Stores = ProvisioningStores;

const limits = { capacity: 100_000, maxBytes: 1 << 28 };

/** Both adapters of the provisioning ports, each on a new empty store (DynamoDB: a fresh table in DynamoDB Local). */
export const provisioningAdapters: [string, () => Promise<Stores>][] = [
  ["memory", async () => memoryProvisioningStores(limits)],
  ["dynamodb", async () => dynamoProvisioningStores(testDocumentClient(), await freshTable("prov"))],
];
