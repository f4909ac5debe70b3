import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { FileBlobs } from "../../provisioning/files/fileBlobs";
import type { ProvisioningStores } from "../../provisioning/ports";
import { INSTALL_LOGS_PREFIX, prefixedBlobs } from "../prefixedBlobs";
import { DynamoCatalogStore } from "./catalogStore";
import { DynamoDefinitionStore } from "./definitionStore";
import { DynamoLookupStore } from "./lookupStore";
import { DynamoNodeStore } from "./nodeStore";
import { DynamoRecordStore } from "./recordStore";
import { DynamoWorkflowStore } from "./workflowStore";

/**
 * Every provisioning port in one DynamoDB table (the partitions each uses: README, "The DynamoDB
 * store"), with the files' bytes where `fileBlobs` keeps them (S3), made on first use.
 */
export const dynamoProvisioningStores = (
  client: DynamoDBDocumentClient,
  table: string,
  fileBlobs: () => FileBlobs,
): ProvisioningStores => ({
  nodes: new DynamoNodeStore(client, table),
  workflows: new DynamoWorkflowStore(client, table),
  lookups: new DynamoLookupStore(client, table),
  definitions: new DynamoDefinitionStore(client, table),
  catalogs: new DynamoCatalogStore(client, table),
  skus: new DynamoRecordStore(client, table, "SKU"),
  tags: new DynamoRecordStore(client, table, "TAG"),
  config: new DynamoRecordStore(client, table, "CONFIG"),
  templates: new DynamoRecordStore(client, table, "TEMPLATE"),
  profiles: new DynamoRecordStore(client, table, "PROFILE"),
  pollers: new DynamoRecordStore(client, table, "POLLER"),
  pollerSamples: new DynamoRecordStore(client, table, "POLLERDATA"),
  files: new DynamoRecordStore(client, table, "FILE"),
  fileIds: new DynamoRecordStore(client, table, "FILEID"),
  sites: new DynamoRecordStore(client, table, "SITE"),
  relayCredentials: new DynamoRecordStore(client, table, "RELAYCRED"),
  relayJobs: new DynamoRecordStore(client, table, "RELAYJOB"),
  instances: new DynamoRecordStore(client, table, "INSTANCE"),
  installReports: new DynamoRecordStore(client, table, "INSTALLREPORT"),
  get logBlobs() {
    return prefixedBlobs(fileBlobs(), INSTALL_LOGS_PREFIX);
  },
  get fileBlobs() {
    return fileBlobs();
  },
});
