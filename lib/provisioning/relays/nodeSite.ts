import { ValidationError } from "../../errors";
import { findNode } from "../nodes/findNode";
import type { Node } from "../nodes/node";
import { RELAY_SERVICES } from "../obmServices/obmAction";
import type { ObmSetting } from "../obmServices/obmSetting";
import type { StoresOf } from "../ports";
import { BOOT_DEVICES, type BootDevice, type JobAction, POWER_ACTIONS, type PowerAction, type RelayJob, viewJob } from "./job";
import { enqueueJob } from "./jobService";
import { getSite } from "./siteService";

/** PUT /nodes/{id}/site: the node belongs to the site (its relays drive its BMC); `null` takes it out. */
export async function setNodeSite(
  stores: StoresOf<"lookups" | "nodes" | "sites">,
  identifier: string,
  site: string | null,
  now: Date,
): Promise<Node> {
  const node = await findNode(stores, identifier);
  if (site !== null) await getSite(stores, site);
  const change = (current: Node): Node => {
    const { site: _old, ...rest } = current;
    return { ...rest, ...(site !== null && { site }), updatedAt: now.toISOString() } as Node;
  };
  return (await stores.nodes.update(node.id, change, node)) ?? node;
}

function relayObm(node: Node): ObmSetting {
  const obm = node.obmSettings.find((setting) => RELAY_SERVICES.has(setting.service));
  if (!obm) throw new ValidationError(`Node ${node.id} has no IPMI or Redfish OBM setting: a relay drives only those`);
  return obm;
}

/**
 * An operator's power, boot-device or identify request: a relay job of the node's site (202). The
 * job's record is the audit: who asked, when, and what the BMC answered.
 */
export async function requestNodeAction(
  stores: StoresOf<"lookups" | "nodes" | "relayJobs">,
  identifier: string,
  body: { action?: unknown; device?: unknown; uefi?: unknown; uri?: unknown; identify?: unknown },
  requestedBy: string,
  now: Date,
): Promise<ReturnType<typeof viewJob>> {
  const node = await findNode(stores, identifier);
  const action = actionOf(body);
  const job: RelayJob = await enqueueJob(stores, { node, obm: relayObm(node), action, requestedBy }, now);
  return viewJob(job);
}

function actionOf(body: { action?: unknown; device?: unknown; uefi?: unknown; uri?: unknown; identify?: unknown }): JobAction {
  if (typeof body.device === "string") {
    if (!BOOT_DEVICES.includes(body.device as BootDevice)) throw new ValidationError(`device must be one of ${BOOT_DEVICES.join(", ")}`);
    const uri = typeof body.uri === "string" ? body.uri : undefined;
    if (uri && body.device !== "http") throw new ValidationError("uri is for device http (UEFI HTTP boot) only");
    return {
      kind: "bootDevice",
      device: body.device as BootDevice,
      uefi: body.uefi === true || body.device === "http",
      persistent: false,
      ...(uri && { uri }),
    };
  }
  if (typeof body.identify === "boolean") return { kind: "identify", on: body.identify };
  if (!POWER_ACTIONS.includes(body.action as PowerAction)) {
    throw new ValidationError(`action must be one of ${POWER_ACTIONS.join(", ")} (or give device, or identify)`);
  }
  return { kind: "power", action: body.action as PowerAction };
}
