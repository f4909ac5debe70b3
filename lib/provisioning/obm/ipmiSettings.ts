import type { Node } from "../nodes/node";
import type { ProvisioningStores } from "../ports";
import { parseObmSetting } from "./obmSetting";
import { writeObmSettings } from "./writeObmSettings";

/**
 * Job.Obm.Ipmi.CreateSettings (RackHD's Task.Obm.Ipmi.CreateSettings): the node's IPMI OBM setting
 * from its BMC catalog and the task's `user` and `password`. The catalog is `bmc`, `bmc-<channel>`
 * for another `ipmichannel`, or `rmm` for channel 3, as RackHD read it. The BMC's address is its
 * `IP Address` (RackHD took its `MAC Address` and resolved it through the lookups; the IP is what
 * the BMC answers on). RackHD then asked the BMC for its power state to test the setting; that
 * needs hardware on the site, so it is not done here.
 */
export async function createIpmiObmSettings(
  stores: ProvisioningStores,
  node: Node,
  options: Record<string, unknown>,
  now: Date,
): Promise<{ state: "succeeded" | "failed"; error?: string }> {
  const channel = options.ipmichannel === null || options.ipmichannel === undefined ? "" : String(options.ipmichannel);
  const source = channel === "" ? "bmc" : channel === "3" ? "rmm" : `bmc-${channel}`;
  const catalog = await stores.catalogs.latest(node.id, source);
  const data = (catalog?.data ?? {}) as Record<string, unknown>;
  const host = [data["IP Address"], data["MAC Address"]].find((value) => typeof value === "string" && value !== "" && value !== "0.0.0.0");
  if (!catalog || typeof host !== "string") {
    return { state: "failed", error: `Node ${node.id} has no ${source} catalog with the BMC's address: catalog its BMC first` };
  }
  const text = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : "");
  const [user, password] = [text(options.user).trim(), text(options.password)];
  if (user === "" || password === "") {
    return {
      state: "failed",
      error: `No BMC credentials for node ${node.id}: give the task's user and password (a SKU's discoveryGraphOptions.defaults, or the workflow's options); none is guessed`,
    };
  }
  const config = { host, user, password };
  await writeObmSettings(stores, node, [parseObmSetting({ service: "ipmi-obm-service", config })], now);
  return { state: "succeeded" };
}
