import { handler as tick } from "../../handlers/provisioning/pollers/tick";
import { nodeIdForMac } from "../../lib/provisioning/ids";
import { sampleMachine } from "../../scripts/microkernel";
import { freshContainer, get, send } from "../support/api";
import { discoverMachine } from "../support/microkernelInProcess";

const A = "/api/1.1";
const NODE = nodeIdForMac("08:00:27:27:eb:12");

beforeEach(() => {
  for (const name of ["PROVISIONING_AUTH", "AUTH_USERS", "API_SERVER", "DISCOVERY_GRAPH", "LOG_REQUESTS"]) delete process.env[name];
  process.env.DEMO_NODES = "on";
  process.env.LOG_REQUESTS = "off";
  freshContainer();
});

describe("pollers", () => {
  it("follow FIT rackhd11's sequence: POST 200 with `type`, data with `sdr`, DELETE 204, then 404", async () => {
    await send("POST", `${A}/nodes/${NODE}/obm`, { service: "noop-obm-service", config: {} });
    const created = await send("POST", `${A}/pollers`, { type: "ipmi", node: NODE, pollInterval: 100, config: { command: "sdr" } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      type: "ipmi",
      node: NODE,
      pollInterval: 100,
      config: { command: "sdr" },
      failureCount: 0,
      paused: false,
    });
    expect(created.body).not.toHaveProperty("name");
    const { id } = created.body;
    expect((await get(`${A}/pollers`)).body.map((p: { id: string }) => p.id)).toEqual([id]);
    expect((await get(`${A}/pollers?type=ipmi`)).body).toHaveLength(1);
    expect((await get(`${A}/pollers?type=snmp`)).body).toHaveLength(0);
    const data = await get(`${A}/pollers/${id}/data`);
    expect(data.status).toBe(200);
    expect(data.body).toEqual([expect.objectContaining({ sdr: [], node: NODE, timestamp: expect.any(String) })]);
    const raw = (await get(`${A}/nodes/${NODE}/pollers`)).body;
    expect(raw).toEqual([expect.objectContaining({ id, name: "Pollers.IPMI" })]);
    expect(raw[0]).not.toHaveProperty("type");
    expect((await send("DELETE", `${A}/pollers/${id}`)).status).toBe(204);
    expect(await get(`${A}/pollers/${id}`)).toMatchObject({
      status: 404,
      body: { message: `Could not find workitem with identifier ${id}` },
    });
  });

  it("run on the schedule: due ones run, each keeps its newest 10 samples; paused ones and not-yet-due ones do not run", async () => {
    await send("POST", `${A}/nodes/${NODE}/obm`, { service: "noop-obm-service", config: {} });
    const fast = (await send("POST", `${A}/pollers`, { type: "ipmi", node: NODE, pollInterval: 1, config: { command: "sel" } })).body;
    const paused = (await send("POST", `${A}/pollers`, { type: "ipmi", node: NODE, pollInterval: 1, paused: true })).body;
    expect(await tick()).toEqual({ ran: 1 });
    for (let i = 0; i < 12; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      await tick();
    }
    const samples = (await get(`${A}/pollers/${fast.id}/data`)).body;
    expect(samples).toHaveLength(10);
    expect(samples[0]).toHaveProperty("sel");
    expect((await get(`${A}/pollers/${paused.id}/data`)).body).toEqual({
      message: `There is no cache record for the poller with ID ${paused.id}.Perhaps it has not been run yet?`,
    });
    const slow = (await send("POST", `${A}/pollers`, { type: "ipmi", node: NODE, pollInterval: 3_600_000 })).body;
    await tick();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await tick()).ran).toBe(1); // only the fast one again: the slow one ran once and is not due for an hour
    expect((await get(`${A}/pollers/${slow.id}`)).body.lastFinished).not.toBeNull();
  });

  it("pause and resume by PATCH /pause and /resume, and answer the newest sample at /data/current (RackHD)", async () => {
    await send("POST", `${A}/nodes/${NODE}/obm`, { service: "noop-obm-service", config: {} });
    const poller = (await send("POST", `${A}/pollers`, { type: "ipmi", node: NODE, pollInterval: 1, config: { command: "sdr" } })).body;
    expect((await get(`${A}/pollers/${poller.id}/data/current`)).status).toBe(200);
    const paused = await send("PATCH", `${A}/pollers/${poller.id}/pause`);
    expect(paused).toMatchObject({ status: 200, body: { id: poller.id, paused: true } });
    await new Promise((resolve) => setTimeout(resolve, 2));
    expect(await tick()).toEqual({ ran: 0 });
    expect((await send("PATCH", `${A}/pollers/${poller.id}/resume`)).body).toMatchObject({ paused: false });
    for (let i = 0; i < 3; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      await tick();
    }
    // Paused, so that neither read runs it again (a read runs a due poller: with a 1 ms interval,
    // each would add a sample, and one a second later has another timestamp).
    await send("PATCH", `${A}/pollers/${poller.id}/pause`);
    const all = (await get(`${A}/pollers/${poller.id}/data`)).body;
    expect(all.length).toBeGreaterThan(1);
    expect((await get(`${A}/pollers/${poller.id}/data/current`)).body).toEqual([all[all.length - 1]]);
    for (const action of ["pause", "resume"]) {
      expect((await send("PATCH", `${A}/pollers/0123456789abcdef01234567/${action}`)).status).toBe(404);
    }
    expect((await get(`${A}/pollers/0123456789abcdef01234567/data/current`)).status).toBe(404);
  });

  it("count a failure, and say why, for an IPMI node of no site (a relay of its site polls its BMC)", async () => {
    await send("POST", `${A}/nodes/${NODE}/obm`, {
      service: "ipmi-obm-service",
      config: { host: "10.0.0.9", user: "admin", password: "pw" },
    });
    const poller = (await send("POST", `${A}/pollers`, { type: "ipmi", node: NODE, pollInterval: 60000 })).body;
    await tick();
    const after = (await get(`${A}/pollers/${poller.id}`)).body;
    expect(after).toMatchObject({
      failureCount: 1,
      lastError: expect.stringMatching(/belongs to no site: a relay of its site drives its BMC/),
    });
    expect((await get(`${A}/pollers/${poller.id}/data`)).status).toBe(404);
  });

  it("answer the library (unknown type: RackHD's 204), refuse bad bodies with 400, and 404 what is not there", async () => {
    expect((await get(`${A}/pollers/library`)).body.map((t: { name: string }) => t.name)).toEqual(["ipmi", "snmp", "redfish"]);
    expect((await get(`${A}/pollers/library/ipmi`)).body.config[0]).toEqual({ key: "host", type: "string" });
    expect((await get(`${A}/pollers/library/nope`)).status).toBe(204);
    expect((await send("POST", `${A}/pollers`, { type: "ipmi" })).body).toEqual({
      message: "pollInterval (integer, milliseconds) is required",
    });
    expect((await send("POST", `${A}/pollers`, { type: "bogus", pollInterval: 5 })).status).toBe(400);
    expect((await send("POST", `${A}/pollers`, { pollInterval: 5 })).body).toEqual({ message: "type must be one of ipmi, snmp, redfish" });
    expect((await send("PATCH", `${A}/pollers/0123456789abcdef01234567`, { paused: true })).status).toBe(404);
    expect((await send("DELETE", `${A}/pollers/0123456789abcdef01234567`)).status).toBe(404);
    expect((await get(`${A}/pollers`)).body).toEqual([]);
    const created = (await send("POST", `${A}/pollers`, { name: "Pollers.SNMP", pollInterval: 5 })).body;
    expect((await send("PATCH", `${A}/pollers/${created.id}`, { paused: true, pollInterval: 10 })).body).toMatchObject({
      type: "snmp",
      paused: true,
      pollInterval: 10,
    });
  });

  it("are created by discovery for a node with a BMC (the five IPMI pollers), not for one without", async () => {
    await discoverMachine("52:54:00:cc:00:01");
    expect((await get(`${A}/nodes/52:54:00:cc:00:01/pollers`)).body).toEqual([]);
    const withBmc = sampleMachine("52:54:00:cc:00:02");
    const bmc =
      "IP Address Source       : Static Address\nIP Address              : 10.1.1.9\nMAC Address             : 00:1e:67:98:bc:7e\n";
    await discoverMachine("52:54:00:cc:00:02", (cmd) =>
      cmd === "sudo ipmitool lan print" ? { stdout: bmc, stderr: "", code: 0 } : withBmc(cmd),
    );
    const pollers = (await get(`${A}/nodes/52:54:00:cc:00:02/pollers`)).body;
    expect(pollers.map((p: { config: { command: string }; pollInterval: number }) => [p.config.command, p.pollInterval])).toEqual([
      ["sdr", 60000],
      ["selInformation", 60000],
      ["sel", 60000],
      ["chassis", 15000],
      ["driveHealth", 30000],
    ]);
    // Deleting the node deletes its pollers.
    expect((await send("DELETE", `${A}/nodes/52:54:00:cc:00:02`)).status).toBe(200);
    expect((await get(`${A}/pollers`)).body).toEqual([]);
  });
});
