import { UnprocessableError } from "../../errors";
import { findNode } from "../nodes/findNode";
import type { Node } from "../nodes/node";
import { runObmAction } from "../obmServices/obmAction";
import type { StoresOf } from "../ports";
import { enqueueJob } from "../relays/jobService";

/** The chassis identify light as last asked for, kept on the node. */
export interface IdentifyState {
  value: boolean;
  service?: string;
  requestedAt?: string;
}

/** GET /nodes/{id}/obm/identify: what the light was last set to (off when never). */
export async function identifyState(stores: StoresOf<"lookups" | "nodes">, identifier: string): Promise<IdentifyState> {
  const node = await findNode(stores, identifier);
  return (node.identify as IdentifyState | undefined) ?? { value: false };
}

/**
 * POST /nodes/{id}/obm/identify `{"value": …}`: the chassis identify light on (any truthy value,
 * the string "false" too, as RackHD's) or off, through the node's OBM service. With the noop
 * service that is recorded and nothing else happens (as for its reboots); IPMI and Redfish go to
 * a relay of the node's site (400 when the node has none); a service nothing here can drive (an
 * SNMP PDU) answers 422 and says so.
 */
export async function setIdentify(
  stores: StoresOf<"lookups" | "nodes" | "relayJobs">,
  identifier: string,
  value: unknown,
  now: Date,
): Promise<IdentifyState> {
  const node = await findNode(stores, identifier);
  const on = Boolean(value);
  const outcome = runObmAction(on ? "turn the identify light on" : "turn the identify light off", undefined, node.obmSettings);
  if (!outcome.ok) throw new UnprocessableError(outcome.error);
  if (outcome.relay) {
    const obm = node.obmSettings.find((setting) => setting.service === outcome.service)!;
    await enqueueJob(stores, { node, obm, action: { kind: "identify", on }, requestedBy: "POST /obm/identify" }, now);
  }
  const identify: IdentifyState = { value: on, service: outcome.service, requestedAt: now.toISOString() };
  await stores.nodes.update(node.id, (current: Node) => ({ ...current, identify, updatedAt: identify.requestedAt! }), node);
  return identify;
}
