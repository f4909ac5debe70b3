import type { Node } from "../nodes/node";
import { parseObmSetting } from "../obmServices/obmSetting";
import type { StoresOf } from "../ports";
import { writeObmSettings } from "./writeObmSettings";

/**
 * Job.Obm.Ipmi.CreateSettings (RackHD's Task.Obm.Ipmi.CreateSettings): the node's IPMI OBM setting
 * from its BMC catalog and the task's `user` and `password`. The catalog is `bmc`, `bmc-<channel>`
 * for another `ipmichannel`, or `rmm` for channel 3, as RackHD read it. The BMC's address is its
 * `IP Address` (RackHD took its `MAC Address` and resolved it through the lookups; the IP is what
 * the BMC answers on). RackHD then asked the BMC for its power state to test the setting; that
 * needs hardware on the site, so it is not done here. A BMC another node of the site already has
 * is never given to a second one automatically: the task fails naming the conflict (not the other
 * node's credentials), the node records it (`obmConflict`, the event `node.obms.conflict`), and
 * only an operator's POST /nodes/{id}/obm assigns it.
 */
export async function createIpmiObmSettings(
  stores: StoresOf<"catalogs" | "nodes">,
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
  const mac = typeof data["MAC Address"] === "string" ? data["MAC Address"] : undefined;
  const holder = await bmcHolder(stores, node, [host, mac]);
  if (holder) {
    // What the discovering machine reported is not to be believed over a setting already in use:
    // its microkernel may name a neighbour's BMC to get that BMC's credentials and power (issue 50).
    const conflict = { host, ...(mac && { mac }), heldBy: holder.id, at: now.toISOString() };
    await stores.nodes.update(node.id, (current) => ({ ...current, obmConflict: conflict, updatedAt: now.toISOString() }), node);
    return {
      state: "failed",
      error: `The BMC at ${host} that node ${node.id}'s ${source} catalog names is already node ${holder.id}'s: not given to a second node; an operator who knows better sets it (POST /api/1.1/nodes/${node.id}/obm)`,
    };
  }
  const config = { host, user, password };
  await writeObmSettings(stores, node, [parseObmSetting({ service: "ipmi-obm-service", config })], now);
  return { state: "succeeded" };
}

/**
 * Another node of the same site (BMC addresses are a site's own: two sites may both use 10.0.0.9)
 * whose OBM setting already names this BMC, by address or MAC. Reads the site's nodes once: a
 * discovery runs this once per machine.
 */
async function bmcHolder(stores: StoresOf<"nodes">, node: Node, names: readonly (string | undefined)[]): Promise<Node | undefined> {
  const wanted = new Set(names.filter((name): name is string => name !== undefined).map((name) => name.toLowerCase()));
  const sameSite = (other: Node) => (other.site ?? null) === (node.site ?? null);
  return (await stores.nodes.list()).find(
    (other) =>
      other.id !== node.id &&
      sameSite(other) &&
      other.obmSettings.some((setting) =>
        ["host", "mac", "macAddress"].some(
          (key) => typeof setting.config[key] === "string" && wanted.has(String(setting.config[key]).toLowerCase()),
        ),
      ),
  );
}
