import { randomBytes } from "node:crypto";
import { NotFoundError, ValidationError } from "../../errors";
import type { ApiContext } from "../apiContext";
import { newToken, parseToken, secretMatches, sha256 } from "../credentialToken";
import { findNode } from "../nodes/findNode";
import type { Node } from "../nodes/node";
import type { ProvisioningStores } from "../ports";
import { updateOrCreate } from "../recordStore";
import { type InstanceRecord, type SeedDocument, USER_DATA_MAX_BYTES } from "./instance";

/** What an operator is given once: the token, and the seed URL cloud-init is pointed at (`ds=nocloud;s=<seedUrl>`). */
export interface IssuedCredential {
  node: string;
  instanceId: string;
  credential: string;
  seedUrl: string;
}

/** What an operator may read back about a node's user-data: whether it is set, not what it says. */
export interface UserDataStatus {
  set: boolean;
  bytes: number;
  sha256?: string;
  updatedAt?: string;
}

const newInstanceId = (): string => `i-${randomBytes(8).toString("hex")}`;

/** The seed URL of a credential: cloud-init appends the document's name to it, so it ends with `/`. */
export const seedUrlOf = (context: ApiContext, credential: string): string => `${context.base}/nocloud/${credential}/`;

const blankRecord = (node: Node, now: Date): InstanceRecord => {
  const stamp = now.toISOString();
  return { id: node.id, instanceId: newInstanceId(), secretSha256: "", issuedAt: stamp, createdAt: stamp, updatedAt: stamp };
};

/**
 * A new instance credential for the node; the one before stops working. `reinstall`: a new
 * instance id as well, so the installed system's cloud-init runs as on its first boot (an install
 * workflow asks for one; an operator rotating a leaked credential keeps the instance id).
 */
export async function issueInstanceCredential(
  stores: ProvisioningStores,
  identifier: string,
  context: ApiContext,
  now: Date,
  reinstall = false,
): Promise<IssuedCredential> {
  const node = await findNode(stores, identifier);
  const { token, secretSha256 } = newToken(node.id);
  const stamp = now.toISOString();
  const record = await updateOrCreate(
    stores.instances,
    node.id,
    (current) => ({ ...current, secretSha256, issuedAt: stamp, updatedAt: stamp, ...(reinstall && { instanceId: newInstanceId() }) }),
    () => blankRecord(node, now),
  );
  return { node: node.id, instanceId: record.instanceId, credential: token, seedUrl: seedUrlOf(context, token) };
}

/** Sets the user-data the node's installed system gets (text, at most 64 KiB); `null` removes it. */
export async function setUserData(
  stores: ProvisioningStores,
  identifier: string,
  userData: string | null,
  now: Date,
): Promise<UserDataStatus> {
  const node = await findNode(stores, identifier);
  if (userData !== null && Buffer.byteLength(userData) > USER_DATA_MAX_BYTES) {
    throw new ValidationError(`userData must be at most ${USER_DATA_MAX_BYTES} bytes`);
  }
  const stamp = now.toISOString();
  const record = await updateOrCreate(
    stores.instances,
    node.id,
    (current) => {
      const { userData: _old, userDataUpdatedAt: _when, ...rest } = current;
      return { ...rest, updatedAt: stamp, ...(userData !== null && { userData, userDataUpdatedAt: stamp }) };
    },
    () => blankRecord(node, now),
  );
  return statusOf(record);
}

/** Whether the node has user-data, its size and hash: never its text (it may hold secrets). */
export async function userDataStatus(stores: ProvisioningStores, identifier: string): Promise<UserDataStatus> {
  const node = await findNode(stores, identifier);
  return statusOf(await stores.instances.get(node.id));
}

const statusOf = (record: InstanceRecord | undefined): UserDataStatus =>
  record?.userData === undefined
    ? { set: false, bytes: 0 }
    : { set: true, bytes: Buffer.byteLength(record.userData), sha256: sha256(record.userData), updatedAt: record.userDataUpdatedAt };

/** The machine holding `credential`, or a 404 that says no more (a wrong token is no oracle). */
async function instanceOf(stores: ProvisioningStores, credential: string): Promise<{ record: InstanceRecord; node: Node }> {
  const parsed = parseToken(credential);
  const record = parsed ? await stores.instances.get(parsed.id) : undefined;
  const node =
    record && parsed && record.secretSha256 !== "" && secretMatches(parsed.secret, record.secretSha256)
      ? await stores.nodes.get(record.id)
      : undefined;
  if (!record || !node) throw new NotFoundError("No such seed");
  return { record, node };
}

/** A host name cloud-init can set: the node's name, else its id, in the letters a host name may hold. */
const hostNameOf = (node: Node): string =>
  node.name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63) || node.id;

/** A cloud-config that asks for nothing (`cloud-init schema` wants a mapping, even an empty one). */
const EMPTY_CLOUD_CONFIG = "#cloud-config\n{}\n";

/** A YAML line whose value is a JSON string (JSON's strings are YAML's double-quoted scalars). */
const yamlLine = (key: string, value: string): string => `${key}: ${JSON.stringify(value)}\n`;

/**
 * One document of cloud-init's NoCloud datasource for the machine holding `credential`:
 * `meta-data` (its instance id, host name and SSH keys), `user-data` (its own, or an empty
 * `#cloud-config`: cloud-init fails the datasource on a 404 here), `vendor-data` (the service's
 * defaults), `network-config` (404: cloud-init then configures the network as it finds it).
 */
export async function seedDocument(stores: ProvisioningStores, credential: string, document: SeedDocument): Promise<string> {
  const { record, node } = await instanceOf(stores, credential);
  switch (document) {
    case "meta-data": {
      const key = (node.sshSettings as { publicKey?: string } | undefined)?.publicKey;
      const keys = key ? `public-keys:\n  - ${JSON.stringify(key)}\n` : "public-keys: []\n";
      return `${yamlLine("instance-id", record.instanceId)}${yamlLine("local-hostname", hostNameOf(node))}${keys}`;
    }
    case "user-data":
      return record.userData ?? EMPTY_CLOUD_CONFIG;
    case "vendor-data":
      return EMPTY_CLOUD_CONFIG;
    default:
      throw new NotFoundError("No network-config: cloud-init configures the network as it finds it");
  }
}

/** Forgets a node's instance (node deletion). */
export async function forgetInstance(stores: ProvisioningStores, nodeId: string): Promise<void> {
  await stores.instances.delete(nodeId);
}
