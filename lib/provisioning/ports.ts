import type { CatalogStore } from "./catalogs/catalogStore";
import type { InstanceRecord } from "./cloudInit/instance";
import type { EventLog } from "./events/eventLog";
import type { FileBlobs } from "./files/fileBlobs";
import type { FileId, FileRecord } from "./files/fileRecord";
import type { DefinitionStore } from "./graphs/definitionStore";
import type { DeliveryLog } from "./hooks/deliveryLog";
import type { Hook } from "./hooks/hook";
import type { InstallReport } from "./installReports/installReport";
import type { LibraryRecord } from "./library/libraryRecord";
import type { LookupStore } from "./lookups/lookupStore";
import type { NodeStore } from "./nodes/nodeStore";
import type { PollerRecord, PollerSamples } from "./pollers/poller";
import type { RecordStore } from "./recordStore";
import type { RelayJobStore } from "./relays/job";
import type { RelayConnectionStore } from "./relays/relayConnection";
import type { RelayCredential, Site } from "./relays/site";
import type { Sku } from "./skus/sku";
import type { AddressStore } from "./subnets/addressStore";
import type { Subnet } from "./subnets/subnet";
import type { Tag } from "./tags/tag";
import type { WorkflowStore } from "./workflows/workflowStore";

/** A service-wide record of the config partition: the DHCP whitelist, the keys set at run time. */
export interface ConfigRecord {
  id: string;
  values: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** The stores the provisioning domain works through; the composition root picks their adapters. */
export interface ProvisioningStores {
  nodes: NodeStore;
  workflows: WorkflowStore;
  lookups: LookupStore;
  definitions: DefinitionStore;
  catalogs: CatalogStore;
  skus: RecordStore<Sku>;
  tags: RecordStore<Tag>;
  /** Service-wide records: the DHCP whitelist, the config keys set at run time. */
  config: RecordStore<ConfigRecord>;
  /** Templates and profiles put in the library (the built-in ones are code). */
  templates: RecordStore<LibraryRecord>;
  profiles: RecordStore<LibraryRecord>;
  pollers: RecordStore<PollerRecord>;
  /** Each poller's last samples, by poller id. */
  pollerSamples: RecordStore<PollerSamples>;
  /** The file store's records, by basename, and which basename each uuid names. */
  files: RecordStore<FileRecord>;
  fileIds: RecordStore<FileId>;
  /** Sites, their relays' credentials (hashes only) and the relays' work (relays/). */
  sites: RecordStore<Site>;
  relayCredentials: RecordStore<RelayCredential>;
  relayJobs: RelayJobStore;
  /** The relays' push connections (issue 56), by id and by site. */
  relayConnections: RelayConnectionStore;
  /** Sites' subnets, and the addresses given from their pools to nodes' planned interfaces (subnets/, issue 54). */
  subnets: RecordStore<Subnet>;
  addresses: AddressStore;
  /** Each node's installed system as cloud-init sees it: instance id, credential hash, user-data (cloudInit/). */
  instances: RecordStore<InstanceRecord>;
  /** Each node's install reports and the index of its install logs (installReports/). */
  installReports: RecordStore<InstallReport>;
  /** Web hooks (hooks/), their recent deliveries, and the events the service recorded (events/). */
  hooks: RecordStore<Hook>;
  deliveries: DeliveryLog;
  events: EventLog;
  /** The install logs' bytes (S3 beside DynamoDB, under `install-logs/`, which expires them). */
  logBlobs: FileBlobs;
  /** The files' bytes (S3 beside DynamoDB). */
  fileBlobs: FileBlobs;
}

/**
 * The stores a domain function works through, by name: each takes only those it uses (directly or
 * through the functions it calls), so its signature says what it may touch, as its registry
 * entry's `data:` says what its Lambda function may.
 */
export type StoresOf<K extends keyof ProvisioningStores> = Pick<ProvisioningStores, K>;
