import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { switchProfile } from "../../../../lib/provisioning/boot/switchProfile";
import { BOOTSTRAP_NOT_FOUND, bootstrapScript } from "../../../../lib/provisioning/discovery/bootstrapScript";
import { recordAddress } from "../../../../lib/provisioning/lookups/lookupService";
import { createNode } from "../../../../lib/provisioning/nodes/nodeService";
import { identifyState, setIdentify } from "../../../../lib/provisioning/obm/identify";
import { createIpmiObmSettings } from "../../../../lib/provisioning/obm/ipmiSettings";
import { writeObmSettings } from "../../../../lib/provisioning/obm/writeObmSettings";
import { setNodeSite } from "../../../../lib/provisioning/relays/nodeSite";
import { createSite } from "../../../../lib/provisioning/relays/siteService";
import { aCatalog, aNode, later, memoryStores, T0 } from "./setUp";

const api = apiContextFor("http://10.0.0.1:9080");
const withObm = (service: string, config: Record<string, unknown> = {}) => ({
  name: "n",
  type: "compute" as const,
  obmSettings: [{ service, config }],
});

describe("the identify light", () => {
  it("is off until set; the noop service records it and does nothing else", async () => {
    const stores = memoryStores();
    const node = await createNode(stores, withObm("noop-obm-service"), T0);
    expect(await identifyState(stores, node.id)).toEqual({ value: false });
    expect(await setIdentify(stores, node.id, "false", later(1))).toEqual({
      value: true,
      service: "noop-obm-service",
      requestedAt: later(1).toISOString(),
    });
    expect((await setIdentify(stores, node.id, 0, later(2))).value).toBe(false);
    expect((await identifyState(stores, node.id)).value).toBe(false);
  });

  it("goes to a relay of the node's site for IPMI, and is refused (422) for a service nothing here drives", async () => {
    const stores = memoryStores();
    const site = await createSite(stores, { name: "lab" }, T0);
    const ipmi = await createNode(stores, withObm("ipmi-obm-service", { host: "10.0.0.9", user: "u", password: "p" }), T0);
    await expect(setIdentify(stores, ipmi.id, true, T0)).rejects.toThrow(/belongs to no site/);
    await setNodeSite(stores, ipmi.id, site.id, T0);
    await setIdentify(stores, ipmi.id, true, later(1));
    const [job] = await stores.relayJobs.list();
    expect(job).toMatchObject({ node: ipmi.id, action: { kind: "identify", on: true } });
    const none = await aNode(stores, "bare", "52:54:00:00:00:09");
    await expect(setIdentify(stores, none.id, true, T0)).rejects.toMatchObject({ kind: "unprocessable" });
  });
});

describe("IPMI settings from a BMC catalog (Job.Obm.Ipmi.CreateSettings)", () => {
  it("takes the BMC's address from the catalog of the channel asked for, and fails saying what is missing", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    expect(await createIpmiObmSettings(stores, node, { user: "admin", password: "pw" }, T0)).toEqual({
      state: "failed",
      error: `Node ${node.id} has no bmc catalog with the BMC's address: catalog its BMC first`,
    });
    await stores.catalogs.add([
      aCatalog(node.id, "bmc", { "IP Address": "0.0.0.0", "MAC Address": "aa:bb:cc:dd:ee:ff" }, "c1"),
      aCatalog(node.id, "rmm", { "IP Address": "10.0.0.3" }, "c2"),
    ]);
    expect(await createIpmiObmSettings(stores, node, { user: "admin", password: "pw", ipmichannel: 3 }, later(1))).toEqual({
      state: "succeeded",
    });
    expect((await stores.nodes.get(node.id))?.obmSettings).toEqual([
      { service: "ipmi-obm-service", config: { host: "10.0.0.3", user: "admin", password: "pw" } },
    ]);
    await createIpmiObmSettings(stores, node, { user: "admin", password: "pw", ipmichannel: null }, later(2));
    expect((await stores.nodes.get(node.id))?.obmSettings[0].config.host).toBe("aa:bb:cc:dd:ee:ff");
    expect((await createIpmiObmSettings(stores, node, { user: "a", password: "b", ipmichannel: 2 }, later(3))).error).toMatch(
      /no bmc-2 catalog/,
    );
  });
});

describe("a BMC another node already has (issue 50: a hostile microkernel named a neighbour's BMC)", () => {
  it("is not given to a second node of the site: the task fails naming the conflict, the node records it, an operator assigns it", async () => {
    const stores = memoryStores();
    const secret = "Victim-Bmc-Pa55";
    const victim = await createNode(stores, withObm("ipmi-obm-service", { host: "10.0.0.9", user: "admin", password: secret }), T0);
    const hostile = await aNode(stores);
    await stores.catalogs.add([aCatalog(hostile.id, "bmc", { "IP Address": "10.0.0.9", "MAC Address": "aa:bb:cc:dd:ee:01" }, "c1")]);
    const outcome = await createIpmiObmSettings(stores, hostile, { user: "admin", password: "site-pw" }, later(1));
    expect(outcome).toEqual({
      state: "failed",
      error: expect.stringContaining(`is already node ${victim.id}'s: not given to a second node`),
    });
    expect(outcome.error).not.toContain(secret);
    const stored = await stores.nodes.get(hostile.id);
    expect(stored?.obmSettings).toEqual([]);
    expect(stored?.obmConflict).toEqual({ host: "10.0.0.9", mac: "aa:bb:cc:dd:ee:01", heldBy: victim.id, at: later(1).toISOString() });
    const events = await stores.events.list(hostile.id);
    expect(events.map((event) => `${event.type}.${event.action}:${event.severity}`)).toContain("node.obms.conflict:warning");
    // By the BMC's MAC too, whatever its case.
    const other = await aNode(stores, "n2", "52:54:00:00:00:77");
    await createNode(stores, { ...withObm("ipmi-obm-service", { host: "AA:BB:CC:DD:EE:02", user: "u", password: "p" }), name: "m" }, T0);
    await stores.catalogs.add([aCatalog(other.id, "bmc", { "IP Address": "10.0.0.77", "MAC Address": "aa:bb:cc:dd:ee:02" }, "c2")]);
    expect((await createIpmiObmSettings(stores, other, { user: "a", password: "b" }, later(2))).state).toBe("failed");
    // The operator's own setting is taken, and ends the conflict.
    const assigned = await writeObmSettings(
      stores,
      stored!,
      [{ service: "ipmi-obm-service", config: { host: "10.0.0.9", user: "a", password: "b" } }],
      later(3),
    );
    expect(assigned?.obmConflict).toBeUndefined();
  });

  it("is given when the other node is in another site (a site's BMC addresses are its own)", async () => {
    const stores = memoryStores();
    const site = await createSite(stores, { name: "east" }, T0);
    const elsewhere = await createNode(stores, withObm("ipmi-obm-service", { host: "10.0.0.9", user: "u", password: "p" }), T0);
    await setNodeSite(stores, elsewhere.id, site.id, T0);
    const node = await aNode(stores);
    await stores.catalogs.add([aCatalog(node.id, "bmc", { "IP Address": "10.0.0.9" }, "c1")]);
    expect(await createIpmiObmSettings(stores, node, { user: "a", password: "b" }, later(1))).toEqual({ state: "succeeded" });
  });
});

describe("the BMC's address, from its catalog", () => {
  it("uses the IP before the MAC, skips an empty one, and fails for a catalog with no usable address", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    await stores.catalogs.add([aCatalog(node.id, "bmc", { "IP Address": "", "MAC Address": 7 }, "c1")]);
    expect(await createIpmiObmSettings(stores, node, { user: "a", password: "b" }, T0)).toEqual({
      state: "failed",
      error: `Node ${node.id} has no bmc catalog with the BMC's address: catalog its BMC first`,
    });
    await stores.catalogs.add([aCatalog(node.id, "bmc", { "IP Address": "10.0.0.4", "MAC Address": "aa:bb:cc:dd:ee:ff" }, "c2", later(1))]);
    expect((await createIpmiObmSettings(stores, node, { user: "a", password: "b" }, later(2))).state).toBe("succeeded");
    expect((await stores.nodes.get(node.id))?.obmSettings[0].config.host).toBe("10.0.0.4");
  });
});

describe("switches and the microkernel's bootstrap.js", () => {
  it("makes a switch node the first time it asks, by MAC or by the address a lookup holds, and hands it the task runner", async () => {
    const stores = memoryStores();
    const script = await switchProfile(stores, "Arista", ["52:54:00:00:00:aa"], "10.0.0.7", api, T0);
    const [node] = await stores.nodes.list();
    expect(node).toMatchObject({ type: "switch", identifiers: ["52:54:00:00:00:aa"] });
    expect(script).toContain(`/tasks/${node.id}`);
    expect(await switchProfile(stores, "arista", [], "10.0.0.7", api, later(1))).toContain(`/tasks/${node.id}`);
    expect(await stores.nodes.list()).toHaveLength(1);
    // A vendor RackHD did not know creates no node, but a switch already known is answered whatever it names (RackHD 1.1).
    await expect(switchProfile(stores, "juniper", ["52:54:00:00:00:bb"], "10.0.0.8", api, T0)).rejects.toThrow(
      "Unknown switch vendor juniper",
    );
    expect(await switchProfile(stores, "juniper", [], "10.0.0.7", api, T0)).toContain(`/tasks/${node.id}`);
    expect(await stores.nodes.list()).toHaveLength(1);
    await expect(switchProfile(stores, "cisco", [], "10.9.9.9", api, T0)).rejects.toThrow(/^Could not identify the switch/);
  });

  it("answers bootstrap.js for a MAC a node has, naming its tasks URL, and nothing for another", async () => {
    const stores = memoryStores();
    const node = await aNode(stores, "n", "52:54:00:00:00:01");
    await recordAddress(stores, "52:54:00:00:00:01", node.id, "10.0.0.5", T0);
    const script = await bootstrapScript(stores, "52-54-00-00-00-01", api, T0);
    expect(script).toContain(JSON.stringify(`${api.base}/tasks/${node.id}`));
    expect(await bootstrapScript(stores, "52:54:00:00:00:02", api, T0)).toBeUndefined();
    expect(await bootstrapScript(stores, undefined, api, T0)).toBeUndefined();
    await expect(bootstrapScript(stores, "nope", api, T0)).rejects.toThrow("Invalid MAC address: nope");
    expect(BOOTSTRAP_NOT_FOUND).toBe("Not Found");
  });
});
