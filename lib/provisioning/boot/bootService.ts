import { ForbiddenError, isDomainError, NotFoundError, ValidationError } from "../../errors";
import type { ApiContext } from "../apiContext";
import { tokenMatches } from "../bootToken";
import { type MachineCredential, machineCredential } from "../cloudInit/instanceService";
import { nodeIdForMac } from "../ids";
import { nodeAtAddress, recordAddress } from "../lookups/lookupService";
import { normalizeMac } from "../mac";
import { findNode } from "../nodes/findNode";
import { buildNode, type Node, type NodeType } from "../nodes/node";
import type { StoresOf } from "../ports";
import { fitsKey } from "../recordSize";
import { redact } from "../secrets";
import { bootingTask, markFromMachine, waitingInstallTask } from "../workflowEngine/progress";
import { ACTIVE_CONFLICT, type Workflow } from "../workflowEngine/workflow";
import { activeWorkflowOf, completeNodeInstall, startWorkflow, type WorkflowStores } from "../workflows/workflowService";
import { type BootLoader, chooseLoader, LOADER_SCRIPTS, type LoaderChoice, type ProfileLoader } from "./bootLoader";
import { grubMessageScript, grubProfileScript } from "./grub";
import { optionsWithInstallDisk } from "./installDiskChoice";
import { isTemplateName, renderInstallTemplate, type TemplateContext } from "./installTemplates";
import { NEEDS_INSTANCE, profileScript, profileWith } from "./ipxe";
import { mediaMessage, mediaProfile } from "./mediaProfile";
import { type PutEntry, renderEntry } from "./putEntry";
import { throughRelay } from "./relayUrls";

export const NO_ACTIVE_WORKFLOW = "Unable to locate active workflow.";

/** `?macs=a&macs=b` or `?macs=a,b`: each must be a MAC (400 otherwise); answered in lowercase colon form. */
export function parseMacs(values: readonly string[]): string[] {
  const macs: string[] = [];
  for (const value of values.flatMap((v) => v.split(","))) {
    if (value.trim() === "") continue;
    const mac = normalizeMac(value);
    if (!mac) throw new ValidationError(`Invalid MAC address: ${value}`);
    if (!macs.includes(mac)) macs.push(mac);
  }
  return macs;
}

export async function nodeForMacs(stores: StoresOf<"nodes">, macs: readonly string[]): Promise<Node | undefined> {
  for (const mac of macs) {
    const node = await stores.nodes.find(mac);
    if (node) return node;
  }
  return undefined;
}

/** The loader a UEFI machine with these MACs is handed (none: the relay could not tell, the setting's). */
export async function uefiLoaderFor(stores: StoresOf<"nodes">, macValues: readonly string[], setting: BootLoader): Promise<LoaderChoice> {
  const macs = parseMacs(macValues);
  return chooseLoader(macs.length > 0 ? await nodeForMacs(stores, macs) : undefined, setting);
}

/**
 * Discovery (RackHD §6.2): name = the first MAC, identifiers = the MACs, type compute (a switch's
 * own route makes `switch` nodes). Two boots of a new machine at once: the second finds the first's.
 */
export async function discoverNode(
  stores: StoresOf<"nodes">,
  macs: readonly string[],
  now: Date,
  type: NodeType = "compute",
): Promise<Node> {
  try {
    const node = buildNode({ fields: { name: macs[0], identifiers: [...macs], type } }, nodeIdForMac(macs[0]), now);
    // Through a site's relay the stores are the site's (relays/siteScope.ts): the node joins that site.
    return await stores.nodes.create(node);
  } catch (error) {
    // The same machine booting twice at once: the other request created it.
    const existing = isDomainError(error) && error.kind === "conflict" ? await nodeForMacs(stores, macs) : undefined;
    if (existing) return existing;
    throw error;
  }
}

/** The MAC a node booted with: the first of the request's MACs the node has (the first MAC for a node just made). */
export const bootMacOf = (node: Node, macs: readonly string[]): string => macs.find((mac) => node.identifiers.includes(mac)) ?? macs[0];

/**
 * A workflow task's boot profile rendered for the node: the profile put under that name, else the
 * built-in one; undefined when neither exists. For GRUB, the built-in one's GRUB form (a put
 * profile is an iPXE script: GRUB is told so).
 */
export async function taskProfile(
  stores: StoresOf<"profiles">,
  context: TemplateContext,
  issue: CredentialIssuer,
  loader: ProfileLoader = "ipxe",
): Promise<string | undefined> {
  const profileName = String(context.options.profile);
  const put = fitsKey(profileName) ? await stores.profiles.get(profileName) : undefined;
  if (loader === "grub" && put) return grubMessageScript(`The boot profile ${profileName} is an iPXE script: it has no GRUB form`);
  if (loader === "media" && put) return mediaMessage(`The boot profile ${profileName} is an iPXE script: it has no virtual media form`);
  const rendering = await withInstance(context, profileName, put, issue);
  if (loader === "grub") return grubProfileScript(profileName, rendering);
  if (loader === "media") return mediaProfile(profileName, rendering);
  return put ? putProfileScript(put, rendering) : profileScript(profileName, rendering);
}

/** Issues the machine a credential for what it is about to fetch (cloudInit/instanceService.ts). */
export type CredentialIssuer = () => Promise<MachineCredential>;

/** The issuer for a node's workflow: one credential per profile or script that names it. */
export const issuerFor =
  (stores: StoresOf<"instances">, node: Node, workflow: Workflow, api: ApiContext, now: Date): CredentialIssuer =>
  () =>
    machineCredential(stores, node, workflow, api, now);

/**
 * The context with the machine's credential when the profile or template names it (a built-in one
 * of NEEDS_INSTANCE, or a put one that says `instance.`): only those cost the write of a new one.
 */
async function withInstance(
  context: TemplateContext,
  name: string,
  put: PutEntry | undefined,
  issue: CredentialIssuer,
): Promise<TemplateContext> {
  const needs = put ? put.contents.includes("instance.") : NEEDS_INSTANCE.has(name);
  return needs ? { ...context, instance: await issue() } : context;
}

/** What the profiles route does with a machine it has not seen: DISCOVERY_GRAPH, or nothing but record it. */
export interface DiscoveryPolicy {
  graph: string | undefined;
}

/**
 * GET /profiles: the iPXE script (or GRUB's, `loader`) for a booting machine. Without MACs, a script that collects them.
 * Unknown MACs: the node is created and, with a discovery graph, that graph starts and its
 * bootstrap profile (the microkernel) is the answer; without one, a script that says so. A node
 * whose workflow has a task waiting for it to boot (an install, the microkernel): that task's
 * profile; else RackHD's "Unable to locate active workflow." Records the source IP against the node.
 */
export async function bootProfile(
  stores: WorkflowStores & StoresOf<"instances" | "profiles">,
  macValues: readonly string[],
  sourceIp: string | undefined,
  api: ApiContext,
  now: Date,
  discovery: DiscoveryPolicy = { graph: undefined },
  loader: ProfileLoader = "ipxe",
): Promise<string> {
  const scripts = LOADER_SCRIPTS[loader];
  const macs = parseMacs(macValues);
  if (macs.length === 0) return scripts.redirect(api);
  const known = await nodeForMacs(stores, macs);
  const node = known ?? (await discoverNode(stores, macs, now));
  // The source address is recorded when the node is discovered and when it boots a profile (the
  // moments a lookup by IP is for), not on each poll of a node with nothing to do.
  const bootMac = bootMacOf(node, macs);
  const rememberAddress = () => recordAddress(stores, bootMac, node.id, sourceIp, now);
  if (!known && !discovery.graph) {
    await rememberAddress();
    return scripts.discovered(node.id, macs);
  }
  const workflow = known ? await activeWorkflowOf(stores, node, now) : await startDiscovery(stores, node, discovery.graph!, api, now);
  const task = workflow && bootingTask(workflow);
  if (!workflow) return scripts.message(NO_ACTIVE_WORKFLOW);
  if (!task) return scripts.message("The active workflow has no boot profile for this node yet.");
  // Installed, and waiting for the installed system's first boot: the firmware boots its disk.
  if (task.installedAt) return scripts.message(`The system is installed (${task.installedAt}): booting from the disk`);
  const script = await taskProfile(
    stores,
    { options: throughRelay(task.options, api), api, nodeId: node.id, mac: bootMac, token: workflow.bootToken },
    issuerFor(stores, node, workflow, api, now),
    loader,
  );
  if (!script) return scripts.message(`Unknown boot profile ${String(task.options.profile)}`);
  await rememberAddress();
  // bootedAt is the first boot of the task: a node that boots again costs no write.
  if (!task.bootedAt)
    await stores.workflows.update(workflow.instanceId, (current) => markFromMachine(current, task.instanceId, "bootedAt", now), workflow);
  return script;
}

/**
 * The discovery graph on a node just created (RackHD's Graph.SKU.Discovery). Two boots of a new
 * machine at once both get here: the one that did not start it finds the other's.
 */
async function startDiscovery(
  stores: WorkflowStores,
  node: Node,
  graph: string,
  api: ApiContext,
  now: Date,
): Promise<Workflow | undefined> {
  try {
    return await startWorkflow(stores, node.id, { name: graph, options: {} }, api, now, node);
  } catch (error) {
    if (isDomainError(error) && error.message === ACTIVE_CONFLICT) return activeWorkflowOf(stores, node, now);
    throw error;
  }
}

/** A put profile, rendered; the header every profile starts with added unless it has its own `#!ipxe`. */
function putProfileScript(record: PutEntry, context: TemplateContext): string {
  const rendered = renderEntry(record, context);
  return rendered.startsWith("#!ipxe") ? rendered : profileWith(context, [rendered]);
}

export interface Requester {
  nodeId?: string;
  macs: readonly string[];
  sourceIp?: string;
  /** The boot token the request carries (`?token=`). */
  token?: string;
}

/** Whether boot requests must carry their workflow's token (BOOT_TOKENS). */
export interface BootPolicy {
  requireToken: boolean;
}

const NEEDS_TOKEN = "A boot request must name its node (?nodeId=) and carry its workflow's token (?token=), as the rendered URLs do";

/** 403 unless the token is the workflow's (BOOT_TOKENS=on). */
function checkToken(policy: BootPolicy, workflow: Workflow, node: Node, token: string | undefined): void {
  if (policy.requireToken && !tokenMatches(workflow.bootToken, token)) {
    throw new ForbiddenError(`The boot token does not match the active workflow of node ${node.id}`);
  }
}

/** Which node a southbound request is from: ?nodeId=, then ?macs=, then the source IP's lookup. */
export async function identifyRequester(stores: StoresOf<"lookups" | "nodes">, who: Requester): Promise<Node> {
  if (who.nodeId !== undefined && who.nodeId !== "") return findNode(stores, who.nodeId);
  const byMac = await nodeForMacs(stores, parseMacs(who.macs));
  if (byMac) return byMac;
  const id = who.sourceIp === undefined ? undefined : await nodeAtAddress(stores, who.sourceIp);
  const node = id === undefined ? undefined : await stores.nodes.get(id);
  if (!node) throw new NotFoundError("Could not identify the requesting node (give ?nodeId= or ?macs=)");
  return node;
}

/**
 * GET /templates/{name}: the install script (kickstart, preseed, ...) of the node's waiting install
 * task. A successful request whose path contains that task's completionUri completes it.
 */
export async function nodeTemplate(
  stores: WorkflowStores & StoresOf<"instances" | "templates">,
  name: string,
  who: Requester,
  path: string,
  api: ApiContext,
  now: Date,
  policy: BootPolicy,
): Promise<string> {
  const put = fitsKey(name) ? await stores.templates.get(name) : undefined;
  if (!put && !isTemplateName(name)) throw new NotFoundError(`Could not find template ${name}`);
  // With tokens, a request names its node: no identifying it by MAC or source address.
  if (policy.requireToken && (!who.nodeId || !who.token)) throw new ForbiddenError(NEEDS_TOKEN);
  const node = await identifyRequester(stores, who);
  const workflow = await activeWorkflowOf(stores, node, now);
  const task = workflow && waitingInstallTask(workflow);
  if (!task) throw new NotFoundError(`${NO_ACTIVE_WORKFLOW} (node ${node.id})`);
  checkToken(policy, workflow, node, who.token);
  const options = await optionsWithInstallDisk(stores, node, workflow, task, now);
  const context = await withInstance(
    { options: throughRelay(options, api), api, nodeId: node.id, mac: node.identifiers[0] ?? "", token: workflow.bootToken },
    name,
    put,
    issuerFor(stores, node, workflow, api, now),
  );
  const text = put ? renderEntry(put, context) : renderInstallTemplate(name, context);
  const completionUri = String(task.options.completionUri ?? "");
  if (completionUri !== "" && path.includes(completionUri)) await completeNodeInstall(stores, node, now, workflow);
  // The first fetch of the install script itself, as bootedAt is the first boot: a refetch costs no write.
  else if (name === task.options.installScript && !task.templateFetchedAt)
    await stores.workflows.update(
      workflow.instanceId,
      (current) => markFromMachine(current, task.instanceId, "templateFetchedAt", now),
      workflow,
    );
  return text;
}

/**
 * POST /notification (RackHD era C): with a nodeId, completes that node's waiting install task.
 * Answers the message it was given, with any secret in it redacted (RackHD echoed them).
 */
export async function notify(
  stores: WorkflowStores,
  message: Record<string, unknown>,
  now: Date,
  policy: BootPolicy,
): Promise<Record<string, unknown>> {
  if (Object.hasOwn(message, "nodeId")) {
    if (typeof message.nodeId !== "string" || message.nodeId === "") throw new ValidationError("Invalid node ID in query or body");
    const node = await findNode(stores, message.nodeId);
    const active = await stores.workflows.activeForNode(node.id);
    if (active) {
      checkToken(policy, active, node, typeof message.token === "string" ? message.token : undefined);
      await completeNodeInstall(stores, node, now, active);
    }
  }
  return redact(message);
}
