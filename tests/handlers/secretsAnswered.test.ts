import { nodeIdForMac } from "../../lib/provisioning/ids";
import { provisioningStores } from "../../lib/store/compositionRoot";
import { api, freshContainer, get, send } from "../support/api";

/**
 * Issue 35 §10: a poller's SNMP community and BMC password are never answered, and a machine's
 * instance credential never reaches a log line; an echo of a redacted answer keeps the secret.
 */
const A = "/api/1.1";
const NODE = nodeIdForMac("08:00:27:27:eb:12");
const COMMUNITY = "Snmp-Community-7731";
const BMC_PASSWORD = "Bmc-Poller-Pa55";

beforeEach(() => {
  for (const name of ["PROVISIONING_AUTH", "AUTH_USERS", "API_SERVER", "BOOT_VIA_RELAY", "BOOT_TOKENS"]) delete process.env[name];
  Object.assign(process.env, { DEMO_NODES: "on", LOG_REQUESTS: "off" });
  freshContainer();
});

describe("secrets in pollers (issue 35 §10)", () => {
  it("redacts a poller's community and password in every answer, and keeps them when the answer is sent back", async () => {
    const snmp = await send("POST", `${A}/pollers`, {
      type: "snmp",
      node: NODE,
      pollInterval: 60000,
      config: { communityString: COMMUNITY, metric: "x" },
    });
    const ipmi = await send("POST", `${A}/pollers`, {
      type: "ipmi",
      node: NODE,
      pollInterval: 60000,
      config: { command: "sdr", host: "10.0.0.9", user: "admin", password: BMC_PASSWORD },
    });
    expect([snmp.status, ipmi.status]).toEqual([200, 200]);
    const answers = [
      snmp,
      ipmi,
      await get(`${A}/pollers/${snmp.body.id}`),
      await get(`${A}/pollers/${ipmi.body.id}`),
      await get(`${A}/pollers`),
      await get(`${A}/nodes/${NODE}/pollers`),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.raw).not.toContain(COMMUNITY);
      expect(answer.raw).not.toContain(BMC_PASSWORD);
    }
    expect((await get(`${A}/pollers/${snmp.body.id}`)).body.config).toEqual({ communityString: "REDACTED", metric: "x" });
    // A client that sends back what it was answered changes the interval, not the secret.
    const echoed = await send("PATCH", `${A}/pollers/${ipmi.body.id}`, {
      config: (await get(`${A}/pollers/${ipmi.body.id}`)).body.config,
      pollInterval: 9000,
    });
    expect(echoed.status).toBe(200);
    expect((await (await provisioningStores()).pollers.get(ipmi.body.id))?.config.password).toBe(BMC_PASSWORD);
  });
});

describe("a machine's credential in the log (issue 35 §10)", () => {
  it("logs a seed or report request's path with the credential cut to its record id", async () => {
    process.env.LOG_REQUESTS = "on";
    const credential = `${NODE}.${"A".repeat(43)}`;
    const lines: string[] = [];
    const spy = jest.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await get(`/api/current/nocloud/${credential}/meta-data`);
      await api({
        method: "POST",
        path: `/api/current/reports/${credential}`,
        headers: { "content-type": "application/json" },
        body: "{}",
      });
    } finally {
      spy.mockRestore();
    }
    const requests = lines.filter((line) => line.includes('"msg":"request"'));
    expect(requests).toHaveLength(2);
    for (const line of requests) {
      expect(line).not.toContain("A".repeat(43));
      expect(line).toContain(`${NODE}.REDACTED`);
    }
  });
});
