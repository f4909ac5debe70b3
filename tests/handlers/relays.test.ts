import { handler as tick } from "../../handlers/provisioning/pollers/tick";
import { api, freshContainer } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

/**
 * Sites, relay credentials and relay jobs through the handlers (real API Gateway v2 events), with
 * northbound auth on: what operators and relays are answered, every refusal, and the boot gate.
 */
const A = "/api/1.1";
const OPERATOR = { authorization: basic("ops", "Op3rator-Pa55-Rl") };
const BMC_PASSWORD = "Bmc-Secret-77";

const as =
  (headers: Record<string, string>) =>
  async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    api({
      method,
      path,
      headers: { ...headers, ...extra, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
const operator = as(OPERATOR);

/** Moves the clock the service reads (Date) on, leaving the timers real. */
function advanceClock(ms: number): void {
  jest.useFakeTimers({ now: Date.now() + ms, doNotFake: ["setTimeout", "setImmediate", "nextTick", "queueMicrotask", "performance"] });
}
afterEach(() => jest.useRealTimers());

beforeEach(() => {
  for (const name of ["API_SERVER", "FILE_SERVER", "BOOT_VIA_RELAY", "RELAY_LEASE_SECONDS", "UEFI_LOADER"]) delete process.env[name];
  Object.assign(process.env, { DEMO_NODES: "off", PROVISIONING_AUTH: "on", AUTH_USERS: "ops:Op3rator-Pa55-Rl", LOG_REQUESTS: "off" });
  freshContainer();
});

/** A site, a relay of it, and an IPMI node in it. */
async function siteWithNode() {
  const site = (await operator("POST", `${A}/sites`, { name: "lab" })).body;
  const credential = (await operator("POST", `${A}/sites/${site.id}/relays`, { name: "relay-a" })).body;
  const node = (await operator("POST", `${A}/nodes`, { name: "n1", identifiers: ["52:54:00:77:00:01"] })).body;
  await operator("POST", `${A}/nodes/${node.id}/obm`, {
    service: "ipmi-obm-service",
    config: { host: "10.0.0.9", user: "admin", password: BMC_PASSWORD },
  });
  expect((await operator("PUT", `${A}/nodes/${node.id}/site`, { site: site.id })).body.site).toBe(site.id);
  const relay = as({ authorization: `Bearer ${credential.token}` });
  return { site, credential, node, relay };
}

describe("sites and relay credentials", () => {
  it("creates, lists and deletes sites, refusing a taken name, a bad one, and a site still in use", async () => {
    const site = await operator("POST", `${A}/sites`, { name: "rack-room-1" });
    expect(site).toMatchObject({ status: 201, body: { name: "rack-room-1" } });
    expect((await operator("POST", `${A}/sites`, { name: "rack-room-1" })).status).toBe(409);
    expect((await operator("POST", `${A}/sites`, { name: "bad/name" })).status).toBe(400);
    expect((await operator("GET", `${A}/sites`)).body).toEqual([site.body]);
    expect((await operator("GET", `${A}/sites/${site.body.id}`)).body).toEqual(site.body);
    expect((await operator("GET", `${A}/sites/0123456789abcdef01234567`)).status).toBe(404);
    const relay = (await operator("POST", `${A}/sites/${site.body.id}/relays`)).body;
    expect(relay).toMatchObject({ name: "relay", online: false, token: expect.stringMatching(/^[0-9a-f]{24}\.[\w-]{43}$/) });
    expect((await operator("DELETE", `${A}/sites/${site.body.id}`)).status).toBe(409);
    const listed = (await operator("GET", `${A}/sites/${site.body.id}/relays`)).body;
    expect(listed).toEqual([expect.not.objectContaining({ token: expect.anything() })]);
    expect((await operator("DELETE", `${A}/sites/0123456789abcdef01234567/relays/${relay.id}`)).status).toBe(404);
    expect((await operator("DELETE", `${A}/sites/${site.body.id}/relays/${relay.id}`)).status).toBe(200);
    expect((await operator("DELETE", `${A}/sites/${site.body.id}`)).status).toBe(200);
    expect((await operator("GET", `${A}/sites/${site.body.id}/relays`)).status).toBe(404);
  });

  it("asks operators for their credentials and relays for theirs", async () => {
    expect((await as({})("GET", `${A}/sites`)).status).toBe(401);
    expect((await as({})("POST", `${A}/relay/jobs/lease`, {})).status).toBe(401);
    expect((await as(OPERATOR)("POST", `${A}/relay/jobs/lease`, {})).status).toBe(401);
  });

  it("puts a node in a site and takes it out; refuses a site that does not exist", async () => {
    const { node } = await siteWithNode();
    expect((await operator("PUT", `${A}/nodes/${node.id}/site`, { site: "0123456789abcdef01234567" })).status).toBe(404);
    expect((await operator("PUT", `${A}/nodes/${node.id}/site`, { site: null })).body.site).toBeUndefined();
    expect((await operator("PUT", `${A}/nodes/${node.id}/site`, { site: 7 })).status).toBe(400);
  });
});

describe("relay jobs", () => {
  it("queues an operator's power action (202) with who asked; the relay leases it with the BMC's credentials, the operator never sees them", async () => {
    const { site, node, relay } = await siteWithNode();
    const job = await operator("POST", `${A}/nodes/${node.id}/power`, { action: "on" });
    expect(job).toMatchObject({ status: 202, body: { state: "queued", requestedBy: "user ops", obm: { service: "ipmi-obm-service" } } });
    expect(job.raw).not.toContain(BMC_PASSWORD);
    const [leased] = (await relay("POST", `${A}/relay/jobs/lease`, { max: 2, version: "0.1.0" })).body;
    expect(leased).toMatchObject({ id: job.body.id, state: "leased", obm: { config: { password: BMC_PASSWORD } } });
    expect((await relay("POST", `${A}/relay/jobs/lease`)).body).toEqual([]);
    expect((await operator("GET", `${A}/sites/${site.id}/jobs`)).raw).not.toContain(BMC_PASSWORD);

    // Power on is not an act-once action: saying "acting" changes nothing.
    expect((await relay("POST", `${A}/relay/jobs/${leased.id}/acting`, { leaseId: leased.lease.id })).body.actingSince).toBeUndefined();
    expect((await relay("POST", `${A}/relay/jobs/${leased.id}/acting`, { leaseId: "other" })).status).toBe(409);
    const done = await relay("POST", `${A}/relay/jobs/${leased.id}/result`, {
      leaseId: leased.lease.id,
      ok: true,
      output: "Chassis Power Control: Up/On",
    });
    expect(done.body).toMatchObject({ state: "succeeded", result: { output: "Chassis Power Control: Up/On" } });
    const again = await relay("POST", `${A}/relay/jobs/${leased.id}/result`, { leaseId: leased.lease.id, ok: false, output: "" });
    expect(again.body.state).toBe("succeeded");
    expect((await relay("POST", `${A}/relay/jobs/unknown/result`, { leaseId: "x", ok: true, output: "" })).status).toBe(404);
    expect((await operator("GET", `${A}/nodes/${node.id}`)).body.power).toMatchObject({ state: "on" });
  });

  it("shows an overdue job failed, with why, to a read that writes nothing (issue 50: it answered 500)", async () => {
    const { site, node } = await siteWithNode();
    const job = (await operator("POST", `${A}/nodes/${node.id}/power`, { action: "on" })).body;
    advanceClock(121_000);
    const listed = await operator("GET", `${A}/sites/${site.id}/jobs`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({
        id: job.id,
        state: "failed",
        result: expect.objectContaining({ relay: "service", error: expect.stringMatching(/^No relay online for site /) }),
      }),
    ]);
  });

  it("takes a result that came after its lease ran out and was given again, the BMC's own words (issue 50)", async () => {
    process.env.RELAY_LEASE_SECONDS = "1";
    const { site, node, relay } = await siteWithNode();
    const job = (await operator("POST", `${A}/nodes/${node.id}/power`, { action: "off" })).body;
    const [slow] = (await relay("POST", `${A}/relay/jobs/lease`, {})).body;
    advanceClock(1_100);
    const [again] = (await relay("POST", `${A}/relay/jobs/lease`, {})).body;
    expect(again.lease.id).not.toBe(slow.lease.id);
    const late = await relay("POST", `${A}/relay/jobs/${job.id}/result`, {
      leaseId: slow.lease.id,
      ok: false,
      output: "",
      error: "Unable to establish IPMI v2 / RMCP+ session",
    });
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ state: "failed", result: { error: "Unable to establish IPMI v2 / RMCP+ session" } });
    // The second lease's result comes second: it changes nothing.
    expect((await relay("POST", `${A}/relay/jobs/${job.id}/result`, { leaseId: again.lease.id, ok: true, output: "" })).body.state).toBe(
      "failed",
    );
    // A lease the job never gave is refused.
    expect((await relay("POST", `${A}/relay/jobs/${job.id}/result`, { leaseId: "forged", ok: true, output: "" })).status).toBe(409);
    const [listed] = (await operator("GET", `${A}/sites/${site.id}/jobs`)).body;
    expect(listed).toMatchObject({
      attempts: 2,
      pastLeases: [slow.lease.id],
      result: { error: "Unable to establish IPMI v2 / RMCP+ session" },
    });
  });

  it("keeps a result that came after the service failed the job beside the failure", async () => {
    process.env.RELAY_LEASE_SECONDS = "1";
    const { site, node, relay } = await siteWithNode();
    const job = (await operator("POST", `${A}/nodes/${node.id}/power`, { action: "on" })).body;
    const leases: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      leases.push((await relay("POST", `${A}/relay/jobs/lease`, {})).body[0].lease.id);
      advanceClock(1_050);
    }
    // The next lease request stores the failure.
    expect((await relay("POST", `${A}/relay/jobs/lease`, {})).body).toEqual([]);
    const late = await relay("POST", `${A}/relay/jobs/${job.id}/result`, {
      leaseId: leases[0],
      ok: true,
      output: "Chassis Power Control: Up/On",
    });
    expect(late.status).toBe(200);
    const [listed] = (await operator("GET", `${A}/sites/${site.id}/jobs`)).body;
    expect(listed).toMatchObject({
      state: "failed",
      result: { relay: "service", error: expect.stringMatching(/took the job 3 times/) },
      lateResult: { ok: true, output: "Chassis Power Control: Up/On" },
    });
  });

  it("marks a reset as acting, so that it is never handed out twice", async () => {
    const { node, relay } = await siteWithNode();
    const job = (await operator("POST", `${A}/nodes/${node.id}/power`, { action: "reset" })).body;
    const [leased] = (await relay("POST", `${A}/relay/jobs/lease`, {})).body;
    expect(leased.id).toBe(job.id);
    expect((await relay("POST", `${A}/relay/jobs/${job.id}/acting`, { leaseId: leased.lease.id })).body.actingSince).toEqual(
      expect.any(String),
    );
  });

  it("refuses what a relay cannot do, saying why", async () => {
    const { node } = await siteWithNode();
    expect((await operator("POST", `${A}/nodes/${node.id}/power`, { action: "explode" })).status).toBe(400);
    expect((await operator("POST", `${A}/nodes/${node.id}/power`, { device: "pxe", uri: "http://x/boot.efi" })).body.message).toMatch(
      /uri is for device http/,
    );
    expect(
      (await operator("POST", `${A}/nodes/${node.id}/power`, { device: "http", uri: "http://10.1.0.2/snponly.efi" })).body.action,
    ).toMatchObject({ device: "http", uefi: true, uri: "http://10.1.0.2/snponly.efi" });
    expect((await operator("POST", `${A}/nodes/${node.id}/power`, { identify: true })).body.action).toEqual({ kind: "identify", on: true });
    await operator("POST", `${A}/nodes/${node.id}/obm`, [{ service: "noop-obm-service", config: {} }]);
    const noop = (await operator("POST", `${A}/nodes`, { name: "n2" })).body;
    const refused = await operator("POST", `${A}/nodes/${noop.id}/power`, { action: "on" });
    expect(refused).toMatchObject({ status: 400, body: { message: expect.stringMatching(/no IPMI or Redfish OBM setting/) } });
  });

  it("runs a due IPMI poller as a relay job, and keeps its sample and the node's power", async () => {
    const { node, relay } = await siteWithNode();
    const poller = (
      await operator("POST", `${A}/pollers`, { type: "ipmi", node: node.id, pollInterval: 60_000, config: { command: "chassis" } })
    ).body;
    expect(await tick()).toEqual({ ran: 1 });
    const [leased] = (await relay("POST", `${A}/relay/jobs/lease`, {})).body;
    expect(leased.action).toEqual({ kind: "poll", command: "chassis", poller: poller.id });
    await relay("POST", `${A}/relay/jobs/${leased.id}/result`, { leaseId: leased.lease.id, ok: true, output: " 21 00 40 70\n" });
    expect((await operator("GET", `${A}/pollers/${poller.id}/data/current`)).body[0]).toMatchObject({
      chassis: { power: true, uid: "Off" },
      node: node.id,
    });
    expect((await operator("GET", `${A}/nodes/${node.id}`)).body.power.state).toBe("on");
  });
});

describe("the boot gate (BOOT_VIA_RELAY)", () => {
  it("sends an operator's workflow's URLs of this service through the relay, for its machine behind it (issue 38)", async () => {
    process.env.BOOT_VIA_RELAY = "on";
    freshContainer();
    const { site, credential } = await siteWithNode();
    const node = (
      await operator("POST", `${A}/nodes`, {
        name: "n5",
        identifiers: ["52:54:00:77:00:05"],
        obmSettings: [{ service: "noop-obm-service", config: {} }],
      })
    ).body;
    await operator("PUT", `${A}/nodes/${node.id}/site`, { site: site.id });
    const started = await operator("POST", `${A}/nodes/${node.id}/workflows`, {
      name: "Graph.InstallImage",
      options: { "install-os": { image: "http://mirror.example/debian.raw.gz" } },
    });
    expect(started.status).toBe(201);
    const relayed = { authorization: `Bearer ${credential.token}`, "x-relay-base": "http://10.1.0.2:8080", "x-forwarded-for": "10.1.0.50" };
    for (const loader of ["ipxe", "grub"]) {
      const script = (await as(relayed)("GET", `/api/current/profiles?macs=52:54:00:77:00:05&loader=${loader}`)).raw;
      // The kernel the workflow named on the service (as the operator reached it) comes through the relay.
      expect(script).toMatch(loader === "grub" ? /linux '\(tftp\)\/common\/vmlinuz/ : /http:\/\/10\.1\.0\.2:8080\/common\/vmlinuz/);
      expect(script).not.toMatch(/https?:\/\/(?!10\.1\.0\.2:8080)[^ ']*\/common\//);
    }
  });

  it("keeps a node's virtual media setting, refuses one that is not an address, and answers a microkernel from the CD its step through the relay (issue 53)", async () => {
    process.env.BOOT_VIA_RELAY = "on";
    freshContainer();
    const { credential } = await siteWithNode();
    const node = `${A}/nodes/52:54:00:77:00:01`;
    const setting = { address: "10.1.0.60/24", gateway: "10.1.0.1", nameservers: ["10.1.0.1"] };
    expect((await operator("PATCH", node, { virtualMedia: setting })).body.virtualMedia).toEqual(setting);
    for (const wrong of [
      { address: "10.1.0.60" },
      { address: "10.1.0.600/24" },
      { gateway: "gw" },
      { nameservers: ["a", "b", "c", "d"] },
      { dhcp: true },
      "on",
    ]) {
      const refused = await operator("PATCH", node, { virtualMedia: wrong });
      expect([refused.status, refused.body.message]).toEqual([
        400,
        expect.stringMatching(/^JSON Schema Violation: virtualMedia must be null, or an object/),
      ]);
    }
    expect((await operator("GET", node)).body.virtualMedia).toEqual(setting);
    expect((await operator("PATCH", node, { virtualMedia: null })).body.virtualMedia).toBeNull();
    // The microkernel's question, as the relay forwards it: one line, its step's words or a message.
    const relay = { authorization: `Bearer ${credential.token}`, "x-forwarded-for": "10.1.0.60", "x-relay-base": "http://10.1.0.2:8080" };
    const answer = await as(relay)("GET", "/api/current/profiles?macs=52:54:00:77:00:01&loader=media");
    expect(answer.status).toBe(200);
    expect(answer.raw).toBe("message Unable to locate active workflow.\n");
    expect((await as(relay)("GET", "/api/current/profiles?macs=52:54:00:77:00:01&loader=floppy")).status).toBe(400);
  });

  it("tells a relay which loader a UEFI machine of its site gets: the node's, else the setting's; another site's node is not known to it (issue 38)", async () => {
    process.env.BOOT_VIA_RELAY = "on";
    process.env.UEFI_LOADER = "grub";
    freshContainer();
    const { site, credential } = await siteWithNode();
    const loader = (headers: Record<string, string>, query = "?macs=52:54:00:77:00:01") =>
      as(headers)("GET", `/api/current/profiles/loader${query}`);
    const relay = { authorization: `Bearer ${credential.token}`, "x-forwarded-for": "10.1.0.50" };
    expect((await loader({})).status).toBe(401);
    expect((await loader(relay)).body).toEqual({ loader: "grub", file: "shimx64.efi", because: "setting" });
    const patched = await operator("PATCH", `${A}/nodes/52:54:00:77:00:01`, { bootLoader: "ipxe" });
    expect(patched.body.bootLoader).toBe("ipxe");
    expect((await loader(relay)).body).toEqual({ loader: "ipxe", file: "snponly.efi", because: "node" });
    // A loader that is not one, and a MAC that is not one: 400, nothing changed.
    const refused = await operator("PATCH", `${A}/nodes/52:54:00:77:00:01`, { bootLoader: "pxelinux" });
    expect([refused.status, refused.body.message]).toEqual([400, "JSON Schema Violation: bootLoader must be ipxe or grub"]);
    expect((await operator("GET", `${A}/nodes/52:54:00:77:00:01`)).body.bootLoader).toBe("ipxe");
    expect((await loader(relay, "?macs=nope")).status).toBe(400);
    // A node of another site names iPXE: this site's relay does not see it, so the setting answers.
    const other = (await operator("POST", `${A}/sites`, { name: "other" })).body;
    const stranger = (await operator("POST", `${A}/nodes`, { name: "s1", identifiers: ["52:54:00:77:00:02"], bootLoader: "ipxe" })).body;
    await operator("PUT", `${A}/nodes/${stranger.id}/site`, { site: other.id });
    expect((await loader(relay, "?macs=52:54:00:77:00:02")).body).toMatchObject({ loader: "grub", because: "setting" });
    expect(site.id).not.toBe(other.id);
    delete process.env.UEFI_LOADER;
  });

  it("refuses a boot request no relay forwarded, and serves one a relay did, on the relay's URL, in its site", async () => {
    process.env.BOOT_VIA_RELAY = "on";
    freshContainer();
    const { site, credential } = await siteWithNode();
    const profile = (headers: Record<string, string>) => as(headers)("GET", "/api/current/profiles?macs=52:54:00:77:00:09");
    expect((await profile({})).status).toBe(401);
    expect((await profile({ authorization: "Bearer nope" })).status).toBe(401);
    const forwarded = await profile({
      authorization: `Bearer ${credential.token}`,
      "x-relay-base": "http://10.1.0.2:8080",
      "x-forwarded-for": "10.1.0.50",
    });
    expect(forwarded.status).toBe(200);
    expect(forwarded.raw).toContain("http://10.1.0.2:8080/");
    expect((await operator("GET", `${A}/nodes/52:54:00:77:00:09`)).body.site).toBe(site.id);
    expect((await operator("GET", `${A}/lookups?q=52:54:00:77:00:09`)).body[0]).toMatchObject({ ipAddress: "10.1.0.50" });
  });
});
