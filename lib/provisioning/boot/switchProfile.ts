import { ValidationError } from "../../errors";
import type { ApiContext } from "../apiContext";
import { bootQuery } from "../bootToken";
import { recordAddress } from "../lookups/lookupService";
import type { StoresOf } from "../ports";
import { bootingTask } from "../workflowEngine/progress";
import { activeWorkflowOf, type WorkflowStores } from "../workflows/workflowService";
import { bootMacOf, discoverNode, issuerFor, nodeForMacs, parseMacs, taskProfile } from "./bootService";
import { taskRunnerScript } from "./taskRunner";

/** The vendors whose zero-touch provisioning RackHD answered (Cisco POAP, Arista and Brocade ZTP). */
export const SWITCH_VENDORS = ["cisco", "arista", "brocade"] as const;

/** Which switch asks: `?macs=` when given, else the MAC whose lookup holds its source address (RackHD's way). */
async function switchMacs(stores: StoresOf<"lookups">, macValues: readonly string[], sourceIp: string | undefined): Promise<string[]> {
  const macs = parseMacs(macValues);
  if (macs.length > 0) return macs;
  const holder = sourceIp === undefined ? undefined : await stores.lookups.byIp(sourceIp);
  if (!holder) throw new ValidationError("Could not identify the switch: give ?macs= or ask from an address a lookup holds");
  return [holder.macAddress];
}

/** A switch seen for the first time: a `switch` node, for a vendor RackHD knew. */
function discoverSwitch(stores: StoresOf<"nodes">, vendor: string, macs: string[], now: Date) {
  if (!(SWITCH_VENDORS as readonly string[]).includes(vendor.toLowerCase())) throw new ValidationError(`Unknown switch vendor ${vendor}`);
  return discoverNode(stores, macs, now, "switch");
}

/**
 * GET /profiles/switch/{vendor} (RackHD 1.1's southbound switch route): what a switch's
 * zero-touch provisioning fetches. The switch is known by its MAC (created as a `switch` node the
 * first time); the vendor is read only then, to refuse creating a node for a vendor RackHD did not
 * know (400): a switch already discovered is answered whatever vendor it names, as RackHD 1.1 did
 * (its profiles service passed the vendor on only to a node's creation). A workflow of the node waiting for it to boot:
 * that task's profile; otherwise RackHD's task runner, a Python script the switch runs, which
 * asks the tasks routes for commands and posts their results back, as the microkernel does.
 * No switch discovery graph is started (RackHD's vendor graphs ran vendor scripts this service
 * does not have): the operator starts the workflow the switch should run.
 */
export async function switchProfile(
  stores: WorkflowStores & StoresOf<"instances" | "profiles">,
  vendor: string,
  macValues: readonly string[],
  sourceIp: string | undefined,
  api: ApiContext,
  now: Date,
): Promise<string> {
  const macs = await switchMacs(stores, macValues, sourceIp);
  const node = (await nodeForMacs(stores, macs)) ?? (await discoverSwitch(stores, vendor, macs, now));
  const mac = bootMacOf(node, macs);
  await recordAddress(stores, mac, node.id, sourceIp, now);
  const workflow = await activeWorkflowOf(stores, node, now);
  const task = workflow && bootingTask(workflow);
  const profile =
    task &&
    (await taskProfile(
      stores,
      { options: task.options, api, nodeId: node.id, mac, token: workflow.bootToken },
      issuerFor(stores, node, workflow, api, now),
    ));
  if (profile) return profile;
  const profileUrl = `${api.profiles}/switch/${vendor.toLowerCase()}?macs=${macs[0]}`;
  return taskRunnerScript(`${api.base}/tasks/${node.id}?${bootQuery(node.id, workflow?.bootToken)}`, profileUrl);
}
