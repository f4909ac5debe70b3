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
  /**
   * The hashes of the credentials handed to the machine by its install workflow (in its kernel
   * line, its install script), newest last: each boot profile or script it fetches gets one, and
   * all stay valid until the node is reinstalled, so an installer holding an older one still
   * reports. At most MACHINE_SECRETS_KEPT.
   */
  machineSecrets?: string[];
  /** The install workflow those credentials and the instance id belong to. */
  workflowId?: string;
  userData?: string;
  userDataUpdatedAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** How many credentials handed to the machine stay valid at once (one per boot or script fetch). */
export const MACHINE_SECRETS_KEPT = 8;

/** The documents of cloud-init's NoCloud datasource that the seed URL serves. */
export const SEED_DOCUMENTS = ["meta-data", "user-data", "vendor-data", "network-config"] as const;
export type SeedDocument = (typeof SEED_DOCUMENTS)[number];

/** The versions of the EC2-style tree served beside the NoCloud seed (`latest` is the newest of them). */
export const EC2_VERSIONS = ["latest", "2009-04-04"] as const;
