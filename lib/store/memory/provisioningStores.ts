import type { ProvisioningStores } from "../../provisioning/ports";
import { INSTALL_LOGS_PREFIX, prefixedBlobs } from "../prefixedBlobs";
import type { BudgetLimits } from "./budget";
import { MemoryCatalogStore } from "./catalogStore";
import { MemoryDefinitionStore } from "./definitionStore";
import { MemoryFileBlobs } from "./fileBlobs";
import { MemoryLookupStore } from "./lookupStore";
import { MemoryNodeStore } from "./nodeStore";
import { MemoryRecordStore } from "./recordStore";
import { MemoryWorkflowStore } from "./workflowStore";

/** Every provisioning port in this container's memory, each bounded by `limits`. */
export function memoryProvisioningStores(limits: BudgetLimits, loopbackUploads = false): ProvisioningStores {
  const fileBlobs = new MemoryFileBlobs(limits, loopbackUploads);
  return {
    nodes: new MemoryNodeStore(limits),
    workflows: new MemoryWorkflowStore(limits),
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
    relayCredentials: new MemoryRecordStore(limits, "relay credential"),
    relayJobs: new MemoryRecordStore(limits, "relay job"),
    instances: new MemoryRecordStore(limits, "instance"),
    installReports: new MemoryRecordStore(limits, "install report"),
    logBlobs: prefixedBlobs(fileBlobs, INSTALL_LOGS_PREFIX),
    fileBlobs,
  };
}
