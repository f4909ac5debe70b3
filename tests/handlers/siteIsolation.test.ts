import fc from "fast-check";
import { api, freshContainer } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

/**
 * Issue 35 §1, §3: a site's relay carries boot traffic only for its own site's machines, and a
 * machine's install credential lives for its install. Tried as an attacker holding site A's relay
 * credential would: every boot, template, seed, report, log and microkernel route for a machine
 * of site B is a 404 that says nothing, exactly as for a machine that does not exist.
 */
const A = "/api/1.1";
const OPERATOR = { authorization: basic("ops", "Op3rator-Pa55-Si") };
const MAC_B = "52:54:00:b0:00:01";

const call = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
  api({
    method,
    path,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const operator = (method: string, path: string, body?: unknown) => call(method, path, OPERATOR, body);

beforeEach(() => {
  for (const name of ["API_SERVER", "FILE_SERVER", "RELAY_LEASE_SECONDS", "BOOT_TOKENS", "DISCOVERY_GRAPH"]) delete process.env[name];
  Object.assign(process.env, {
    DEMO_NODES: "off",
    PROVISIONING_AUTH: "on",
    AUTH_USERS: "ops:Op3rator-Pa55-Si",
    LOG_REQUESTS: "off",
    BOOT_VIA_RELAY: "on",
  });
  freshContainer();
});

/** A site with one relay: the headers its relay forwards a machine's request with. */
async function site(name: string) {
  const made = (await operator("POST", `${A}/sites`, { name })).body;
  const { token } = (await operator("POST", `${A}/sites/${made.id}/relays`, { name: `${name}-relay` })).body;
  return { id: made.id as string, relay: { authorization: `Bearer ${token}`, "x-relay-base": `http://${name}.relay:8080` } };
}

/** Site B's machine, booted into the image install through B's relay: what an attacker would want of it. */
async function installingOnB() {
  const a = await site("a");
  const b = await site("b");
  const node = (await operator("POST", `${A}/nodes`, { name: "b-1", identifiers: [MAC_B] })).body.id as string;
  await operator("PUT", `${A}/nodes/${node}/site`, { site: b.id });
  await operator("POST", `${A}/nodes/${node}/obm`, { service: "noop-obm-service", config: {} });
  const started = await operator("POST", `${A}/nodes/${node}/workflows`, {
    name: "Graph.InstallImage",
    options: { "install-os": { image: "debian-12.raw.gz" } },
  });
  expect(started.status).toBe(201);
  const profile = await call("GET", `/api/current/profiles?macs=${MAC_B}`, b.relay);
  expect(profile.status).toBe(200);
  const script = new URL(/INSTALL_SCRIPT=(\S+)/.exec(profile.raw)![1]);
  const installScript = await call("GET", `${script.pathname}${script.search}`, b.relay);
  expect(installScript.status).toBe(200);
  const report = new URL(/^REPORT_URL='([^']+)'/m.exec(installScript.raw)![1]);
  const seed = `${report.pathname.replace("/reports/", "/nocloud/")}/`;
  expect((await call("GET", `${seed}meta-data`, b.relay)).status).toBe(200);
  return { a, b, node, scriptPath: `${script.pathname}${script.search}`, report: report.pathname, seed };
}

describe("a site's relay and another site's machines (issue 35 §1)", () => {
  it("answers site A's relay a 404 that says nothing for every boot route of site B's machine", async () => {
    const { a, b, node, scriptPath, report, seed } = await installingOnB();
    const token = new URL(`http://x${scriptPath}`).searchParams.get("token");
    const tries: Array<[string, string, unknown?]> = [
      ["GET", `/api/current/profiles?macs=${MAC_B}`],
      ["GET", scriptPath],
      ["GET", `/api/current/templates/renasar-ansible.pub?nodeId=${node}&token=${token}`],
      ["GET", `${seed}user-data`],
      ["GET", `${seed}meta-data`],
      ["POST", report, { event_type: "start", name: "install", description: "x", origin: "cloudinit", timestamp: 1 }],
      ["POST", `${report}/logs/installer?seq=1`, "stolen"],
      ["POST", `/api/current/notification?nodeId=${node}&token=${token}`, {}],
      ["GET", `/api/current/tasks/${node}?token=${token}`],
      ["GET", `/api/current/tasks/bootstrap.js?macAddress=${MAC_B}`],
    ];
    for (const [method, path, body] of tries) {
      const answer = await call(method, path, a.relay, body);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      // Nothing of B's but what the request itself named: not its site, not its name, not its workflow.
      for (const secret of [b.id, "b-1", "Graph.InstallImage", "site"]) expect(answer.raw).not.toContain(secret);
    }
    // B's own relay still gets all of it, and A's tries changed nothing of B's.
    expect((await call("GET", scriptPath, b.relay)).status).toBe(200);
    expect((await call("GET", `${seed}meta-data`, b.relay)).status).toBe(200);
    expect((await operator("GET", `${A}/nodes/${node}/timeline`)).body.events ?? []).toEqual([]);
  });

  it("lets a relay discover a new machine into its own site, but never another site's MAC", async () => {
    const { a, b } = await installingOnB();
    const fresh = await call("GET", "/api/current/profiles?macs=52:54:00:a0:00:01", a.relay);
    expect(fresh.status).toBe(200);
    expect((await operator("GET", `${A}/nodes/52:54:00:a0:00:01`)).body.site).toBe(a.id);
    // B's MAC given second: the machine is not B's node, and B's node does not move.
    const both = await call("GET", `/api/current/profiles?macs=52:54:00:a0:00:02,${MAC_B}`, a.relay);
    expect(both.status).toBe(404);
    expect((await operator("GET", `${A}/nodes/${MAC_B}`)).body.site).toBe(b.id);
  });

  it("refuses (401) a boot request no relay forwarded", async () => {
    const { scriptPath } = await installingOnB();
    expect((await call("GET", scriptPath)).status).toBe(401);
    expect((await call("GET", `/api/current/profiles?macs=${MAC_B}`)).status).toBe(401);
  });
});

describe("a machine's install credential (issue 35 §3)", () => {
  it("lives for its install however often the machine asks for its profile", async () => {
    const { b, report, seed } = await installingOnB();
    for (let boot = 0; boot < 12; boot += 1) expect((await call("GET", `/api/current/profiles?macs=${MAC_B}`, b.relay)).status).toBe(200);
    expect((await call("GET", `${seed}meta-data`, b.relay)).status).toBe(200);
    const event = { event_type: "start", name: "install", description: "x", origin: "cloudinit", timestamp: 1 };
    expect((await call("POST", report, b.relay, event)).status).toBe(200);
  });
});

/** A machine of `site` booted into the image install through its relay: what its install hands it. */
type Site = { id: string; relay: Record<string, string> };

async function installingOn(site: Site, mac: string, name: string) {
  const node = (await operator("POST", `${A}/nodes`, { name, identifiers: [mac] })).body.id as string;
  await operator("PUT", `${A}/nodes/${node}/site`, { site: site.id });
  await operator("POST", `${A}/nodes/${node}/obm`, { service: "noop-obm-service", config: {} });
  await operator("POST", `${A}/nodes/${node}/workflows`, {
    name: "Graph.InstallImage",
    options: { "install-os": { image: "debian-12.raw.gz" } },
  });
  const profile = await call("GET", `/api/current/profiles?macs=${mac}`, site.relay);
  const script = new URL(/INSTALL_SCRIPT=(\S+)/.exec(profile.raw)![1]);
  const token = script.searchParams.get("token")!;
  const installScript = await call("GET", `${script.pathname}${script.search}`, site.relay);
  const credential = new URL(/^REPORT_URL='([^']+)'/m.exec(installScript.raw)![1]).pathname.split("/").pop()!;
  return { node, mac, token, credential, site };
}

describe("the boot, seed, report and relay routes with forged and swapped credentials (issue 35 fuzz)", () => {
  it("answer no 5xx, and never one site's machine to another site's relay", async () => {
    const [a, b] = [await site("a"), await site("b")];
    const machines = [await installingOn(a, "52:54:00:a0:00:11", "a-1"), await installingOn(b, "52:54:00:b0:00:11", "b-1")];
    const forged = `${"0".repeat(24)}.${"F".repeat(43)}`;
    const relays = { none: {}, forged: { authorization: `Bearer ${forged}` }, a: a.relay, b: b.relay } as const;
    const pick = fc.constantFrom(0, 1);
    const request = fc.record({
      relay: fc.constantFrom("none", "forged", "a", "b") as fc.Arbitrary<keyof typeof relays>,
      machine: pick,
      credentialOf: fc.oneof(pick, fc.constant(-1)),
      tokenOf: fc.oneof(pick, fc.constant(-1)),
      route: fc.integer({ min: 0, max: 9 }),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ relay, machine, credentialOf, tokenOf, route }) => {
        const target = machines[machine];
        const credential = credentialOf < 0 ? forged : machines[credentialOf].credential;
        const token = tokenOf < 0 ? "forged-token" : machines[tokenOf].token;
        const routes: Array<[string, string, unknown?]> = [
          ["GET", `/api/current/profiles?macs=${target.mac}`],
          ["GET", `/api/current/templates/install-image.sh?nodeId=${target.node}&token=${token}`],
          ["GET", `/api/current/nocloud/${credential}/user-data`],
          ["GET", `/api/current/nocloud/${credential}/meta-data`],
          [
            "POST",
            `/api/current/reports/${credential}`,
            { event_type: "start", name: "x", description: "x", origin: "cloudinit", timestamp: 1 },
          ],
          ["POST", `/api/current/reports/${credential}/logs/x?seq=1`, "x"],
          ["POST", `/api/current/notification?nodeId=${target.node}&token=${token}`, {}],
          ["GET", `/api/current/tasks/${target.node}?token=${token}`],
          ["GET", `/api/current/tasks/bootstrap.js?macAddress=${target.mac}`],
          ["POST", `${A}/relay/jobs/lease`, {}],
        ];
        const [method, path, body] = routes[route];
        const answer = await call(method, path, relays[relay], body);
        expect({ path, status: answer.status < 500 }).toEqual({ path, status: true });
        // A relay of one site never learns anything of the other site's machine that the request did
        // not carry itself (the notification echoes its message): not its id, credential, token or site.
        const other = relay === "a" ? machines[1] : relay === "b" ? machines[0] : undefined;
        const sent = `${path} ${JSON.stringify(body ?? "")}`;
        for (const secret of other ? [other.node, other.credential, other.token, other.site.id] : []) {
          if (!sent.includes(secret)) expect(answer.raw).not.toContain(secret);
        }
      }),
      { numRuns: 200 },
    );
  });
});
