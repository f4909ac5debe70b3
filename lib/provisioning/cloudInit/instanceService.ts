import { randomBytes } from "node:crypto";
import { NotFoundError, ValidationError } from "../../errors";
import type { ApiContext } from "../apiContext";
import { derivedToken, newToken, parseToken, secretMatches, sha256 } from "../credentialToken";
import { type Netplan, planOf } from "../networkPlans/networkPlan";
import { findNode } from "../nodes/findNode";
import type { Node } from "../nodes/node";
import type { StoresOf } from "../ports";
import { USER_DATA_MAX_BYTES } from "../recordSize";
import { updateOrCreate } from "../recordStore";
import { type InstanceRecord, MACHINE_SECRETS_KEPT } from "./instance";

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
  stores: StoresOf<"instances" | "lookups" | "nodes">,
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
    // A reinstall also ends the credentials the install before handed to the machine.
    (current) => ({
      ...current,
      secretSha256,
      issuedAt: stamp,
      updatedAt: stamp,
      ...(reinstall && { instanceId: newInstanceId(), machineSecrets: [] }),
    }),
    () => blankRecord(node, now),
  );
  return { node: node.id, instanceId: record.instanceId, credential: token, seedUrl: seedUrlOf(context, token) };
}

/** Sets the user-data the node's installed system gets (text, at most 64 KiB); `null` removes it. */
export async function setUserData(
  stores: StoresOf<"instances" | "lookups" | "nodes">,
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
export async function userDataStatus(stores: StoresOf<"instances" | "lookups" | "nodes">, identifier: string): Promise<UserDataStatus> {
  const node = await findNode(stores, identifier);
  return statusOf(await stores.instances.get(node.id));
}

const statusOf = (record: InstanceRecord | undefined): UserDataStatus =>
  record?.userData === undefined
    ? { set: false, bytes: 0 }
    : { set: true, bytes: Buffer.byteLength(record.userData), sha256: sha256(record.userData), updatedAt: record.userDataUpdatedAt };

/**
 * The machine holding `credential`, or a 404 that says no more (a wrong token is no oracle): the
 * operator's credential or one handed to the machine by its install workflow. A machine's
 * credential lives as long as its install: once that workflow is cancelled, failed, timed out or
 * gone, it reads nothing more (issue 50: it still read `user-data` after the install ended).
 */
export async function instanceOf(
  stores: StoresOf<"instances" | "nodes" | "workflows">,
  credential: string,
): Promise<{ record: InstanceRecord; node: Node }> {
  const parsed = parseToken(credential);
  const record = parsed ? await stores.instances.get(parsed.id) : undefined;
  const operators = record && record.secretSha256 !== "" && secretMatches(parsed!.secret, record.secretSha256);
  const machines = record && !operators && (record.machineSecrets ?? []).some((hash) => secretMatches(parsed!.secret, hash));
  const valid = operators || (machines && (await installLives(stores, record!.workflowId)));
  const node = valid ? await stores.nodes.get(record!.id) : undefined;
  if (!record || !node) throw new NotFoundError("No such seed");
  return { record, node };
}

/** Whether the install workflow that handed out a machine's credentials is running or succeeded. */
async function installLives(stores: StoresOf<"workflows">, workflowId: string | undefined): Promise<boolean> {
  const workflow = workflowId === undefined ? undefined : await stores.workflows.get(workflowId);
  return workflow !== undefined && (workflow._status === "running" || workflow._status === "succeeded");
}

/** What an install workflow renders into the machine's kernel line or install script. */
export interface MachineCredential {
  credential: string;
  instanceId: string;
  /** cloud-init's NoCloud seed URL for the installed system (`ds=nocloud;s=…`, or `seedfrom`). */
  seedUrl: string;
  /** Where the machine posts its reports (cloud-init's webhook format) and, under `/logs/`, its logs. */
  reportUrl: string;
  /** The node's network plan as netplan, when it has one: the install writes it into the installed system (seedConfig.ts). */
  network?: Netplan;
}

/** The URL a machine posts its reports to. */
export const reportUrlOf = (context: ApiContext, credential: string): string => `${context.base}/reports/${credential}`;

/** The install workflow a machine credential belongs to: its id, and its boot token when it has one. */
export interface CredentialWorkflow {
  id: string;
  bootToken?: string;
}

/**
 * The credential for the machine that `workflow` installs, handed out in what it fetches (issue
 * 35 §3). It is derived from the workflow's boot token, so every profile or script the machine
 * fetches during its install carries the same one, and it lives as long as the install: however
 * often the machine reboots or asks again, the installer's credential keeps working. The first
 * for a workflow starts a new instance (a new instance id, so the installed system's cloud-init
 * runs its first boot) and ends the credentials of the install before; asking again writes nothing.
 * A workflow without a boot token (one made before tokens) gets a new random one per fetch, the
 * last MACHINE_SECRETS_KEPT of them valid.
 */
export async function machineCredential(
  stores: StoresOf<"instances">,
  node: Node,
  workflow: CredentialWorkflow,
  context: ApiContext,
  now: Date,
): Promise<MachineCredential> {
  const { token, secretSha256 } =
    workflow.bootToken === undefined ? newToken(node.id) : derivedToken(node.id, workflow.bootToken, `instance-credential:${workflow.id}`);
  const answer = (instanceId: string): MachineCredential => ({
    credential: token,
    instanceId,
    seedUrl: seedUrlOf(context, token),
    reportUrl: reportUrlOf(context, token),
    ...(planOf(node) && { network: planOf(node)!.netplan }),
  });
  const kept = await stores.instances.get(node.id);
  if (kept?.workflowId === workflow.id && kept.machineSecrets?.includes(secretSha256)) return answer(kept.instanceId);
  const stamp = now.toISOString();
  const record = await updateOrCreate(
    stores.instances,
    node.id,
    (current) =>
      current.workflowId === workflow.id
        ? {
            ...current,
            machineSecrets: [...(current.machineSecrets ?? []).filter((hash) => hash !== secretSha256), secretSha256].slice(
              -MACHINE_SECRETS_KEPT,
            ),
            updatedAt: stamp,
          }
        : { ...current, instanceId: newInstanceId(), workflowId: workflow.id, machineSecrets: [secretSha256], updatedAt: stamp },
    () => blankRecord(node, now),
  );
  return answer(record.instanceId);
}

/**
 * Ends at once every credential the node's install handed to its machine (redeploy, issue 53): the
 * installed system being replaced reads and reports nothing more, before the new install's first
 * fetch would have ended them. The operator's credential and user-data stay.
 */
export async function endMachineCredentials(stores: StoresOf<"instances">, nodeId: string, now: Date): Promise<void> {
  await stores.instances.update(nodeId, ({ workflowId: _ended, ...current }) => ({
    ...current,
    machineSecrets: [],
    updatedAt: now.toISOString(),
  }));
}

/** Forgets a node's instance (node deletion; release, which hands the machine to its next owner). */
export async function forgetInstance(stores: StoresOf<"instances">, nodeId: string): Promise<void> {
  await stores.instances.delete(nodeId);
}
