import { isDomainError, ValidationError } from "../../errors";
import type { ApiContext } from "../apiContext";
import { nodeIdForMac } from "../ids";
import { recordAddress } from "../lookups/lookupService";
import { buildNode, type Node } from "../nodes/node";
import type { ProvisioningStores } from "../ports";
import { bootingTask } from "../workflows/progress";
import { activeWorkflowOf } from "../workflows/workflowService";
import { nodeForMacs, parseMacs } from "./bootService";
import { bootQuery } from "./bootToken";
import { profileScript } from "./ipxe";
import { taskRunnerScript } from "./taskRunner";

/** The vendors whose zero-touch provisioning RackHD answered (Cisco POAP, Arista and Brocade ZTP). */
export const SWITCH_VENDORS = ["cisco", "arista", "brocade"] as const;

/** Which switch asks: `?macs=` when given, else the MAC whose lookup holds its source address (RackHD's way). */
async function switchMacs(stores: ProvisioningStores, macValues: readonly string[], sourceIp: string | undefined): Promise<string[]> {
  const macs = parseMacs(macValues);
  if (macs.length > 0) return macs;
  const holder = sourceIp === undefined ? undefined : await stores.lookups.byIp(sourceIp);
  if (!holder) throw new ValidationError("Could not identify the switch: give ?macs= or ask from an address a lookup holds");
  return [holder.macAddress];
}

/** A switch not seen before: a node of type `switch`, named after its MAC. */
async function discoverSwitch(stores: ProvisioningStores, macs: readonly string[], now: Date): Promise<Node> {
  const input = { fields: { name: macs[0], identifiers: [...macs], type: "switch" as const } };
  try {
    return await stores.nodes.create(buildNode(input, nodeIdForMac(macs[0]), now));
  } catch (error) {
    const existing = isDomainError(error) && error.kind === "conflict" ? await nodeForMacs(stores, macs) : undefined;
    if (existing) return existing;
    throw error;
  }
}

/**
 * GET /profiles/switch/{vendor} (RackHD 1.1's southbound switch route): what a switch's
 * zero-touch provisioning fetches. An unknown vendor is a 400. The switch is known by its MAC
 * (created as a `switch` node the first time); a workflow of the node waiting for it to boot:
 * that task's profile; otherwise RackHD's task runner, a Python script the switch runs, which
 * asks the tasks routes for commands and posts their results back, as the microkernel does.
 * No switch discovery graph is started (RackHD's vendor graphs ran vendor scripts this service
 * does not have): the operator starts the workflow the switch should run.
 */
export async function switchProfile(
  stores: ProvisioningStores,
  vendor: string,
  macValues: readonly string[],
  sourceIp: string | undefined,
  api: ApiContext,
  now: Date,
): Promise<string> {
  if (!(SWITCH_VENDORS as readonly string[]).includes(vendor.toLowerCase())) throw new ValidationError(`Unknown switch vendor ${vendor}`);
  const macs = await switchMacs(stores, macValues, sourceIp);
  const node = (await nodeForMacs(stores, macs)) ?? (await discoverSwitch(stores, macs, now));
  await recordAddress(stores, macs.find((mac) => node.identifiers.includes(mac)) ?? macs[0], node.id, sourceIp, now);
  const workflow = await activeWorkflowOf(stores, node, now);
  const task = workflow && bootingTask(workflow);
  const context = { options: task?.options ?? {}, api, nodeId: node.id, mac: macs[0], token: workflow?.bootToken };
  const profile = task && profileScript(String(task.options.profile), context);
  if (profile) return profile;
  const profileUrl = `${api.profiles}/switch/${vendor.toLowerCase()}?macs=${macs[0]}`;
  return taskRunnerScript(`${api.base}/tasks/${node.id}?${bootQuery(node.id, workflow?.bootToken)}`, profileUrl);
}
