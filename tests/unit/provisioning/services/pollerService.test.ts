import { createNode } from "../../../../lib/provisioning/nodes/nodeService";
import { DEFAULT_IPMI_POLLERS, SAMPLES_KEPT } from "../../../../lib/provisioning/pollers/poller";
import {
  createDefaultPollers,
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
  recordPollResult,
  removeNodePollers,
  runDuePollers,
  runPoller,
  setPollerPaused,
} from "../../../../lib/provisioning/pollers/pollerService";
import { setNodeSite } from "../../../../lib/provisioning/relays/nodeSite";
import { createSite } from "../../../../lib/provisioning/relays/siteService";
import { aCatalog, aNode, later, memoryStores, type Stores, T0 } from "./setUp";

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

  describe("a BMC's pollers, run by a site's relay", () => {
    const IPMI = { service: "ipmi-obm-service", config: { host: "10.0.0.9", user: "admin", password: "secret" } };

    const bmcNode = async (stores: Stores, onSite = true) => {
      const node = await createNode(stores, { name: "bmc-1", type: "compute", obmSettings: [IPMI] }, T0);
      if (!onSite) return node;
      const site = await createSite(stores, { name: "lab" }, T0);
      return setNodeSite(stores, node.id, site.id, T0);
    };

    it("queues a poll job for the site's relays, with the poller's command (sdr when it names none it knows)", async () => {
      const stores = memoryStores();
      const node = await bmcNode(stores);
      const sel = await createPoller(stores, { type: "ipmi", pollInterval: 5_000, node: node.id, config: { command: "sel" } }, T0);
      const odd = await createPoller(stores, { type: "ipmi", pollInterval: 5_000, node: node.id, config: { command: "rm -rf" } }, T0);
      expect(await runDuePollers(stores, T0)).toBe(2);
      const jobs = await stores.relayJobs.list();
      // Both pollers were made in the same millisecond: their jobs' order is their random ids'.
      expect(jobs.map((job) => job.action)).toEqual(
        expect.arrayContaining([
          { kind: "poll", command: "sel", poller: sel.id },
          { kind: "poll", command: "sdr", poller: odd.id },
        ]),
      );
      expect(jobs).toHaveLength(2);
      const selJob = jobs.find((job) => job.action.kind === "poll" && job.action.poller === sel.id);
      expect(selJob).toMatchObject({ id: `poll-${sel.id}-${T0.getTime()}`, node: node.id, requestedBy: `poller ${sel.id}` });
      // Started, due again one interval later, not finished: the relay's result finishes it.
      expect(await getPoller(stores, sel.id)).toMatchObject({
        lastStarted: T0.toISOString(),
        lastFinished: null,
        nextScheduled: later(5_000).toISOString(),
        failureCount: 0,
      });
    });

    it("queues a Redfish poller's read for a node with a Redfish BMC (powerState when it names none it knows), its sample under the BMC's URI", async () => {
      const stores = memoryStores();
      const REDFISH = { service: "redfish-obm-service", config: { uri: "https://10.0.0.8", user: "root", password: "calvin" } };
      const made = await createNode(stores, { name: "rf-1", type: "compute", obmSettings: [REDFISH] }, T0);
      const node = await setNodeSite(stores, made.id, (await createSite(stores, { name: "lab" }, T0)).id, T0);
      const thermal = await createPoller(
        stores,
        { type: "redfish", pollInterval: 5_000, node: node.id, config: { command: "thermal" } },
        T0,
      );
      const odd = await createPoller(stores, { type: "redfish", pollInterval: 5_000, node: node.id, config: { command: "sdr" } }, T0);
      await runDuePollers(stores, T0);
      expect((await stores.relayJobs.list()).map((job) => job.action)).toEqual(
        expect.arrayContaining([
          { kind: "poll", command: "thermal", poller: thermal.id },
          { kind: "poll", command: "powerState", poller: odd.id },
        ]),
      );
      const output = JSON.stringify({ Temperatures: [{ Name: "CPU1", ReadingCelsius: 40 }], Fans: [] });
      const value = await recordPollResult(stores, thermal.id, "thermal", { ok: true, output }, later(1));
      expect(value).toEqual({ temperatures: [{ name: "CPU1", readingCelsius: 40 }], fans: [] });
      expect((await pollerData(stores, thermal.id, later(2)))[0]).toEqual({
        thermal: value,
        host: "https://10.0.0.8",
        user: null,
        node: node.id,
        timestamp: later(1).toString(),
      });
    });

    it("counts a failure, with why, for a BMC node of no site: no relay can reach it", async () => {
      const stores = memoryStores();
      const node = await bmcNode(stores, false);
      const poller = await createPoller(stores, { type: "ipmi", pollInterval: 5_000, node: node.id }, T0);
      await runPoller(stores, poller, T0);
      expect(await getPoller(stores, poller.id)).toMatchObject({
        failureCount: 1,
        lastError: expect.stringContaining("belongs to no site"),
        lastFinished: T0.toISOString(),
        nextScheduled: later(5_000).toISOString(),
      });
      expect(await stores.relayJobs.list()).toEqual([]);
    });

    it("keeps a relay's result as a sample in RackHD's shape, the newest ten, and counts a failure with the BMC's words", async () => {
      const stores = memoryStores();
      const node = await bmcNode(stores);
      const poller = await createPoller(stores, { type: "ipmi", pollInterval: 5_000, node: node.id, config: { command: "chassis" } }, T0);
      const output = "System Power         : on\nPower Overload       : false\n";
      const value = await recordPollResult(stores, poller.id, "chassis", { ok: true, output }, later(1));
      const [sample] = await pollerData(stores, poller.id, later(2));
      expect(sample).toEqual({ chassis: value, host: "10.0.0.9", user: null, node: node.id, timestamp: later(1).toString() });
      expect(await getPoller(stores, poller.id)).toMatchObject({ lastFinished: later(1).toISOString(), failureCount: 0 });
      for (let i = 2; i < SAMPLES_KEPT + 5; i++) await recordPollResult(stores, poller.id, "chassis", { ok: true, output }, later(i));
      const kept = await pollerData(stores, poller.id, later(3));
      expect(kept).toHaveLength(SAMPLES_KEPT);
      expect(kept.at(-1)?.timestamp).toBe(later(SAMPLES_KEPT + 4).toString());
      expect(await recordPollResult(stores, poller.id, "chassis", { ok: false, output: "", error: "BMC busy" }, later(50))).toBeUndefined();
      expect(await getPoller(stores, poller.id)).toMatchObject({
        failureCount: 1,
        lastError: "BMC busy",
        lastFinished: later(50).toISOString(),
      });
      await recordPollResult(stores, poller.id, "chassis", { ok: false, output: "" }, later(51));
      expect(await getPoller(stores, poller.id)).toMatchObject({ failureCount: 2, lastError: "failed" });
      expect(await pollerData(stores, poller.id, later(52))).toHaveLength(SAMPLES_KEPT);
      // A success clears the last error.
      await recordPollResult(stores, poller.id, "chassis", { ok: true, output }, later(53));
      expect((await getPoller(stores, poller.id)).lastError).toBeUndefined();
    });

    it("drops a result for a poller deleted meanwhile, storing nothing; a poller of no node has no host", async () => {
      const stores = memoryStores();
      expect(await recordPollResult(stores, "gone", "sdr", { ok: true, output: "" }, T0)).toBeUndefined();
      expect(await stores.pollerSamples.get("gone")).toBeUndefined();
      const loose = await createPoller(stores, { type: "ipmi", pollInterval: 5_000, paused: true }, T0);
      await recordPollResult(stores, loose.id, "sdr", { ok: true, output: "" }, T0);
      expect((await pollerData(stores, loose.id, T0))[0]).toMatchObject({ host: null, node: null, sdr: [] });
    });

    it("creates RackHD's five default pollers once, for a node with a bmc catalog only", async () => {
      const stores = memoryStores();
      const node = await bmcNode(stores);
      await createDefaultPollers(stores, node, T0);
      expect(await listPollers(stores, {})).toEqual([]);
      await stores.catalogs.add([aCatalog(node.id, "bmc", { "IP Address": "10.0.0.9" }, "c1")]);
      await createPoller(stores, { type: "ipmi", pollInterval: 1_000, node: node.id, config: { command: "sel" } }, T0);
      await createDefaultPollers(stores, node, T0);
      await createDefaultPollers(stores, node, later(1));
      const pollers = await nodePollers(stores, node.id);
      expect(pollers.map((poller) => poller.config.command).sort()).toEqual(DEFAULT_IPMI_POLLERS.map(([command]) => command).sort());
      expect(pollers.find((poller) => poller.config.command === "sdr")).toMatchObject({ name: "Pollers.IPMI", pollInterval: 60_000 });
      expect(new Set(pollers.map((poller) => poller.id)).size).toBe(DEFAULT_IPMI_POLLERS.length);
    });
  });

  describe("what a noop node's poller answers, and why another cannot run", () => {
    it("answers RackHD's empty value per command, {} for another, and names what is missing", async () => {
      const stores = memoryStores();
      const noop = await createNode(stores, { name: "n", type: "compute", obmSettings: [{ service: "noop-obm-service", config: {} }] }, T0);
      const bare = await aNode(stores, "bare", "52:54:00:00:00:09");
      const sel = await createPoller(stores, { type: "ipmi", pollInterval: 1, node: noop.id, config: { command: "sel" } }, T0);
      const info = await createPoller(stores, { type: "ipmi", pollInterval: 1, node: noop.id, config: { command: "selInformation" } }, T0);
      const other = await createPoller(stores, { type: "ipmi", pollInterval: 1, node: noop.id, config: { command: "fans" } }, T0);
      expect((await pollerData(stores, sel.id, T0))[0]).toMatchObject({ sel: [], host: null, user: null, node: noop.id });
      expect((await pollerData(stores, info.id, T0))[0]).toMatchObject({ selInformation: {} });
      expect((await pollerData(stores, other.id, T0))[0]).toMatchObject({ fans: {} });
      const orphan = await createPoller(stores, { type: "ipmi", pollInterval: 1, node: "0123456789abcdef01234567" }, T0);
      const none = await createPoller(stores, { type: "ipmi", pollInterval: 1 }, T0);
      const unreachable = await createPoller(stores, { type: "ipmi", pollInterval: 1, node: bare.id }, T0);
      await runDuePollers(stores, later(1));
      expect((await getPoller(stores, orphan.id)).lastError).toBe("The poller's node 0123456789abcdef01234567 does not exist");
      expect((await getPoller(stores, none.id)).lastError).toBe("The poller's node (none) does not exist");
      expect((await getPoller(stores, unreachable.id)).lastError).toMatch(/needs noop-obm-service here: .*\(no OBM service\)$/);
    });

    it("keeps a stored secret when a config is patched back with REDACTED, and never answers it", async () => {
      const stores = memoryStores();
      const node = await aNode(stores);
      const poller = await createPoller(
        stores,
        { type: "snmp", pollInterval: 1, node: node.id, config: { community: "c", password: "pw" } },
        T0,
      );
      const [answered] = await nodePollers(stores, node.id);
      expect(answered.config.password).toBe("REDACTED");
      const patched = await patchPoller(stores, poller.id, { config: { ...answered.config, community: "d" } }, later(1));
      expect(patched.config).toEqual({ community: "d", password: "pw" });
      expect(patched.updatedAt).toBe(later(1).toISOString());
    });
  });
});
