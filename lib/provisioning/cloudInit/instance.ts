/**
 * What the service keeps for one machine's installed system (cloud-init's view of it), by node
 * id: its instance id, which changes on every reinstall so cloud-init runs its first boot again;
 * the hash of its instance credential (the token in its seed URL); and the user-data an operator
 * set for it.
 */
export interface InstanceRecord {
  /** The node's id. */
  id: string;
  instanceId: string;
  secretSha256: string;
  issuedAt: string;
  userData?: string;
  userDataUpdatedAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** The most user-data a node keeps (cloud-init reads far less; an item must fit DynamoDB's 400 KB). */
export const USER_DATA_MAX_BYTES = 64 * 1024;

/** The documents of cloud-init's NoCloud datasource that the seed URL serves. */
export const SEED_DOCUMENTS = ["meta-data", "user-data", "vendor-data", "network-config"] as const;
export type SeedDocument = (typeof SEED_DOCUMENTS)[number];
