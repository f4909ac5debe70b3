import { JOURNALED } from "../../provisioning/events/journal";
import type { Hook } from "../../provisioning/hooks/hook";
import type { ProvisioningStores } from "../../provisioning/ports";
import type { RelayCredential } from "../../provisioning/relays/site";
import { INSTALL_LOGS_PREFIX, prefixedBlobs } from "../prefixedBlobs";
import type { BudgetLimits } from "./budget";
import { MemoryCatalogStore } from "./catalogStore";
import { MemoryDefinitionStore } from "./definitionStore";
import { MemoryDeliveryLog } from "./deliveryLog";
import { journaledMemory, MemoryEventLog } from "./eventLog";
import { MemoryFileBlobs } from "./fileBlobs";
import { MemoryLookupStore } from "./lookupStore";
import { MemoryNodeStore } from "./nodeStore";
import { MemoryAddressStore, MemoryRecordStore, MemoryRelayConnectionStore, MemoryRelayJobStore } from "./recordStore";
import { MemoryWorkflowStore } from "./workflowStore";

/**
 * Every provisioning port in this container's memory, each bounded by `limits`; the stores whose
 * changes make events record them as they write (lib/provisioning/events/journal.ts).
 */
export function memoryProvisioningStores(limits: BudgetLimits, loopbackUploads = false): ProvisioningStores {
  const fileBlobs = new MemoryFileBlobs(limits, loopbackUploads);
  const events = new MemoryEventLog();
  return {
    nodes: journaledMemory(new MemoryNodeStore(limits), JOURNALED.nodes, events),
    workflows: journaledMemory(new MemoryWorkflowStore(limits), JOURNALED.workflows, events),
    lookups: new MemoryLookupStore(limits),
    definitions: new MemoryDefinitionStore(limits),
    catalogs: new MemoryCatalogStore(limits),
    skus: new MemoryRecordStore(limits, "SKU"),
    tags: new MemoryRecordStore(limits, "tag"),
    config: new MemoryRecordStore(limits, "config"),
    templates: new MemoryRecordStore(limits, "template"),
    profiles: new MemoryRecordStore(limits, "profile"),
    pollers: new MemoryRecordStore(limits, "poller"),
    pollerSamples: new MemoryRecordStore(limits, "poller sample"),
    files: new MemoryRecordStore(limits, "file"),
    fileIds: new MemoryRecordStore(limits, "file id"),
    sites: new MemoryRecordStore(limits, "site"),
    relayCredentials: journaledMemory(
      new MemoryRecordStore<RelayCredential>(limits, "relay credential"),
      JOURNALED.relayCredentials,
      events,
    ),
    relayJobs: journaledMemory(new MemoryRelayJobStore(limits, "relay job"), JOURNALED.relayJobs, events),
    relayConnections: new MemoryRelayConnectionStore(limits),
    hooks: journaledMemory(new MemoryRecordStore<Hook>(limits, "hook"), JOURNALED.hooks, events),
    deliveries: new MemoryDeliveryLog(),
    events,
    subnets: new MemoryRecordStore(limits, "subnet"),
    addresses: new MemoryAddressStore(limits, "address"),
    instances: new MemoryRecordStore(limits, "instance"),
    installReports: new MemoryRecordStore(limits, "install report"),
    logBlobs: prefixedBlobs(fileBlobs, INSTALL_LOGS_PREFIX),
    fileBlobs,
  };
}
