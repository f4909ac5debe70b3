import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { JOURNALED } from "../../provisioning/events/journal";
import type { FileBlobs } from "../../provisioning/files/fileBlobs";
import type { Hook } from "../../provisioning/hooks/hook";
import type { ProvisioningStores } from "../../provisioning/ports";
import type { RelayCredential } from "../../provisioning/relays/site";
import { INSTALL_LOGS_PREFIX, prefixedBlobs } from "../prefixedBlobs";
import { DynamoAddressStore } from "./addressStore";
import { DynamoCatalogStore } from "./catalogStore";
import { DynamoDefinitionStore } from "./definitionStore";
import { DynamoDeliveryLog } from "./deliveryLog";
import { DynamoEventLog } from "./eventLog";
import { DynamoLookupStore } from "./lookupStore";
import { DynamoNodeStore } from "./nodeStore";
import { DynamoRecordStore } from "./recordStore";
import { DynamoRelayConnectionStore } from "./relayConnectionStore";
import { DynamoRelayJobStore } from "./relayJobStore";
import { DynamoWorkflowStore } from "./workflowStore";

/** The partition keys of the machine credentials and install reports, spread by shard (see SPREAD_SHARDS). */
export const instanceKey = (shard: number) => `INSTANCE#${shard}`;
export const installReportKey = (shard: number) => `INSTALLREPORT#${shard}`;

/**
 * Every provisioning port in one DynamoDB table (the partitions each uses: README, "The DynamoDB
 * store"), with the files' bytes where `fileBlobs` keeps them (S3), made on first use. The stores
 * whose changes make events write them in the change's transaction (events/journal.ts).
 */
export function dynamoProvisioningStores(client: DynamoDBDocumentClient, table: string, fileBlobs: () => FileBlobs): ProvisioningStores {
  const log = new DynamoEventLog(client, table);
  return {
    nodes: new DynamoNodeStore(client, table, { changeEvents: JOURNALED.nodes, log }),
    workflows: new DynamoWorkflowStore(client, table, { changeEvents: JOURNALED.workflows, log }),
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
    relayCredentials: new DynamoRecordStore<RelayCredential>(client, table, "RELAYCRED", {
      journal: { changeEvents: JOURNALED.relayCredentials, log },
    }),
    relayJobs: new DynamoRelayJobStore(client, table, { changeEvents: JOURNALED.relayJobs, log }),
    relayConnections: new DynamoRelayConnectionStore(client, table),
    hooks: new DynamoRecordStore<Hook>(client, table, "HOOK", { journal: { changeEvents: JOURNALED.hooks, log } }),
    deliveries: new DynamoDeliveryLog(client, table),
    events: log,
    subnets: new DynamoRecordStore(client, table, "SUBNET"),
    addresses: new DynamoAddressStore(client, table),
    instances: new DynamoRecordStore(client, table, "INSTANCE", { spreadKey: instanceKey }),
    installReports: new DynamoRecordStore(client, table, "INSTALLREPORT", { spreadKey: installReportKey }),
    get logBlobs() {
      return prefixedBlobs(fileBlobs(), INSTALL_LOGS_PREFIX);
    },
    get fileBlobs() {
      return fileBlobs();
    },
  };
}
