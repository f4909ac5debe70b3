import { createNode } from "../../../../lib/provisioning/nodes/nodeService";
import {
  createPoller,
  currentPollerData,
  deletePoller,
  getPoller,
  isDue,
  listPollers,
  nodePollers,
  patchPoller,
  pollerData,
  pollerLibraryEntry,
  removeNodePollers,
  runDuePollers,
  setPollerPaused,
} from "../../../../lib/provisioning/pollers/pollerService";
import { aNode, later, memoryStores, T0 } from "./setUp";

describe("pollerService", () => {
  it("keeps RackHD's fields only, takes `type` or RackHD's `name`, and is due at once", async () => {
    const stores = memoryStores();
    const poller = await createPoller(stores, { type: "ipmi", pollInterval: 60_000, config: { command: "sdr" }, extra: 1 }, T0);
    expect(poller).toMatchObject({
      name: "Pollers.IPMI",
      node: null,
      pollInterval: 60_000,
      paused: false,
      nextScheduled: T0.toISOString(),
    });
    expect(poller).not.toHaveProperty("extra");
    expect((await createPoller(stores, { name: "Pollers.SNMP", pollInterval: 1 }, T0)).name).toBe("Pollers.SNMP");
    expect(isDue(poller, T0)).toBe(true);
    expect(isDue({ ...poller, paused: true }, T0)).toBe(false);
    expect(isDue({ ...poller, nextScheduled: later(1).toISOString() }, T0)).toBe(false);
    expect(isDue({ ...poller, nextScheduled: null }, T0)).toBe(true);
    expect((await listPollers(stores, { type: ["snmp"] })).map((p) => p.type)).toEqual(["snmp"]);
  });

  it("refuses each bad field with its own text, storing nothing", async () => {
    const stores = memoryStores();
    const refusals: [Record<string, unknown>, string][] = [
      [{ type: "telnet", pollInterval: 1 }, "type must be one of ipmi, snmp, redfish"],
      [{ pollInterval: 1 }, "type must be one of ipmi, snmp, redfish"],
      [{ type: "ipmi" }, "pollInterval (integer, milliseconds) is required"],
      [{ type: "ipmi", pollInterval: 0 }, "pollInterval (integer, milliseconds) is required"],
      [{ type: "ipmi", pollInterval: 1.5 }, "pollInterval (integer, milliseconds) is required"],
      [{ type: "ipmi", pollInterval: 1, node: 7 }, "node must be a node id or null"],
      [{ type: "ipmi", pollInterval: 1, config: [] }, "config must be an object"],
      [{ type: "ipmi", pollInterval: 1, paused: "yes" }, "paused must be true or false"],
    ];
    for (const [body, text] of refusals) await expect(createPoller(stores, body, T0)).rejects.toThrow(text);
    expect(await listPollers(stores, {})).toEqual([]);
  });

  it("patches only what it is given, pauses and resumes, and answers RackHD's 404 text for an unknown id", async () => {
    const stores = memoryStores();
    const poller = await createPoller(stores, { type: "snmp", pollInterval: 1_000 }, T0);
    expect(await patchPoller(stores, poller.id, { pollInterval: 5_000 }, later(1))).toMatchObject({
      name: "Pollers.SNMP",
      pollInterval: 5_000,
    });
    await expect(patchPoller(stores, poller.id, { pollInterval: -1 }, later(1))).rejects.toMatchObject({ kind: "bad-request" });
    expect((await setPollerPaused(stores, poller.id, true, later(2))).paused).toBe(true);
    expect((await setPollerPaused(stores, poller.id, true, later(3))).updatedAt).toBe(later(2).toISOString());
    expect((await setPollerPaused(stores, poller.id, false, later(4))).paused).toBe(false);
    await expect(getPoller(stores, "nope")).rejects.toMatchObject({ message: "Could not find workitem with identifier nope" });
    await expect(patchPoller(stores, "nope", {}, T0)).rejects.toMatchObject({ kind: "not-found" });
    await expect(setPollerPaused(stores, "x".repeat(2_000), true, T0)).rejects.toMatchObject({ kind: "not-found" });
    await deletePoller(stores, poller.id);
    await expect(deletePoller(stores, poller.id)).rejects.toMatchObject({ kind: "not-found" });
  });

  it("runs a due poller of a noop node on a read, keeping its samples, and runs it again only after its interval", async () => {
    const stores = memoryStores();
    const node = await createNode(stores, { name: "n", type: "compute", obmSettings: [{ service: "noop-obm-service", config: {} }] }, T0);
    const poller = await createPoller(stores, { type: "ipmi", pollInterval: 1_000, node: node.id }, T0);
    await expect(currentPollerData(stores, "nope", T0)).rejects.toThrow(
      "There is no cache record for the poller with ID nope.Perhaps it has not been run yet?",
    );
    expect(await pollerData(stores, poller.id, T0)).toHaveLength(1);
    expect(await pollerData(stores, poller.id, later(999))).toHaveLength(1);
    expect(await runDuePollers(stores, later(1_000))).toBe(1);
    expect(await pollerData(stores, poller.id, later(1_001))).toHaveLength(2);
    expect(await currentPollerData(stores, poller.id, later(1_001))).toHaveLength(1);
    await deletePoller(stores, poller.id);
    expect(await stores.pollerSamples.get(poller.id)).toBeUndefined();
  });

  it("counts a failure, with why, for a poller no Lambda function can run, and keeps no sample", async () => {
    const stores = memoryStores();
    const snmp = await createPoller(stores, { type: "snmp", pollInterval: 1_000 }, T0);
    expect(await runDuePollers(stores, T0)).toBe(1);
    expect(await getPoller(stores, snmp.id)).toMatchObject({
      failureCount: 1,
      lastError: "Pollers.SNMP needs a reachable agent, which a Lambda function cannot poll",
      nextScheduled: later(1_000).toISOString(),
    });
    await expect(pollerData(stores, snmp.id, later(1))).rejects.toMatchObject({ kind: "not-found" });
  });

  it("lists a node's pollers as stored and removes them, samples too, with the node", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    const mine = await createPoller(stores, { type: "snmp", pollInterval: 1_000, node: node.id }, T0);
    await createPoller(stores, { type: "snmp", pollInterval: 1_000 }, T0);
    expect((await nodePollers(stores, node.id)).map((p) => p.id)).toEqual([mine.id]);
    await removeNodePollers(stores, node.id);
    expect(await nodePollers(stores, node.id)).toEqual([]);
    expect(await listPollers(stores, {})).toHaveLength(1);
    expect(pollerLibraryEntry("ipmi")).toBeDefined();
    expect(pollerLibraryEntry("telnet")).toBeUndefined();
  });
});
