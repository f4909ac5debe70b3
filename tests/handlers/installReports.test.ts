import { api, freshContainer, get, send } from "../support/api";

const A = "/api/1.1";
const MAC = "52:54:00:c1:00:21";

beforeEach(() => {
  for (const name of ["PROVISIONING_AUTH", "AUTH_USERS", "API_SERVER", "BOOT_VIA_RELAY", "BOOT_TOKENS"]) delete process.env[name];
  process.env.DEMO_NODES = "off";
  freshContainer();
});

/** A machine booted into the image install: its credential, from the install script it fetched. */
async function bootedMachine() {
  const node = (
    await send("POST", `${A}/nodes`, { name: "web-2", identifiers: [MAC], obmSettings: [{ service: "noop-obm-service", config: {} }] })
  ).body.id as string;
  const started = await send("POST", `${A}/nodes/${node}/workflows`, {
    name: "Graph.InstallImage",
    options: { "install-os": { image: "debian-12.raw.gz" } },
  });
  expect(started.status).toBe(201);
  const profile = (await get(`${A}/profiles?macs=${MAC}`)).raw;
  const script = new URL(/INSTALL_SCRIPT=(\S+)/.exec(profile)![1]);
  const installScript = (await get(`${script.pathname}${script.search}`)).raw;
  const reportUrl = new URL(/^REPORT_URL='([^']+)'/m.exec(installScript)![1]);
  return { node, workflow: started.body.instanceId as string, reportPath: reportUrl.pathname };
}

const event = (type: string, name: string, result?: string, description = name) => ({
  event_type: type,
  name,
  description,
  origin: "cloudinit",
  timestamp: 1764000000.5,
  ...(result && { result }),
});

describe("install reports, logs and the timeline over HTTP (issue 26)", () => {
  it("takes the machine's events and log chunks, and answers the operator its timeline and logs", async () => {
    const { node, workflow, reportPath } = await bootedMachine();
    expect(await send("POST", reportPath, event("start", "install", ""))).toMatchObject({
      status: 200,
      body: { accepted: true, events: 1 },
    });
    const chunk = await api({
      method: "POST",
      path: `${reportPath}/logs/installer?seq=1`,
      headers: { "content-type": "text/plain" },
      body: "writing debian-12.raw.gz\n",
    });
    expect(chunk).toMatchObject({ status: 201, body: { name: "installer", seq: 1, bytes: 25, duplicate: false } });
    const again = await api({
      method: "POST",
      path: `${reportPath}/logs/installer?seq=1`,
      headers: { "content-type": "text/plain" },
      body: "other\n",
    });
    expect(again).toMatchObject({ status: 200, body: { duplicate: true } });
    const failed = await send("POST", reportPath, event("finish", "install", "FAIL", "could not write the image"));
    expect(failed.body.workflow).toMatchObject({ status: "failed" });
    const timeline = await get(`${A}/nodes/${node}/timeline`);
    expect(timeline.status).toBe(200);
    expect(timeline.body.workflow).toMatchObject({ status: "failed", failure: { reason: "installer-failed", task: "install-os" } });
    expect(timeline.body.logs).toEqual([{ name: "installer", parts: 1, bytes: 25, path: `nodes/${node}/install-logs/installer` }]);
    const log = await get(`${A}/${timeline.body.logs[0].path}`);
    expect(log).toMatchObject({ status: 200, raw: "writing debian-12.raw.gz\n" });
    expect(log.headers["content-type"]).toMatch(/^text\/plain/);
    expect((await get(`${A}/workflows/${workflow}`)).body.failure.reason).toBe("installer-failed");
  });

  it("keeps the installed system's addresses and moves the node's lookup to them (issue 54 found the route could not write lookups)", async () => {
    const { node, reportPath } = await bootedMachine();
    const addresses = [
      { name: "eno1", mac: MAC, addresses: [] },
      { name: "eno1.20", mac: MAC, addresses: ["10.20.0.10/24", "fe80::1/64"] },
    ];
    const answer = await send("POST", reportPath, { ...event("progress", "addresses"), addresses });
    expect(answer.status).toBe(200);
    expect((await get(`${A}/nodes/${node}`)).body.addresses).toMatchObject({ nics: addresses, source: "installed-system" });
    expect((await get(`${A}/lookups?q=10.20.0.10`)).body).toEqual([expect.objectContaining({ node, macAddress: MAC })]);
  });

  it("answers bad input with a clear 4xx and changes nothing", async () => {
    const { node, reportPath } = await bootedMachine();
    const before = (await get(`${A}/nodes/${node}/timeline`)).body;
    const wrongCredential = reportPath.replace(/\.[\w-]{43}$/, `.${"A".repeat(43)}`);
    expect((await send("POST", wrongCredential, event("finish", "install", "FAIL"))).status).toBe(404);
    expect((await send("POST", `${A}/reports/not-a-credential`, event("start", "install"))).status).toBe(404);
    expect((await send("POST", reportPath, { event_type: "begin", name: "install" })).status).toBe(400);
    expect(
      (await api({ method: "POST", path: reportPath, headers: { "content-type": "application/json" }, body: "{not json" })).status,
    ).toBe(400);
    expect(
      (await api({ method: "POST", path: `${reportPath}/logs/installer`, headers: { "content-type": "text/plain" }, body: "x" })).status,
    ).toBe(400);
    expect(
      (await api({ method: "POST", path: `${reportPath}/logs/installer?seq=0`, headers: { "content-type": "text/plain" }, body: "x" }))
        .status,
    ).toBe(400);
    expect(
      (await api({ method: "POST", path: `${reportPath}/logs/-bad?seq=1`, headers: { "content-type": "text/plain" }, body: "x" })).status,
    ).toBe(404);
    expect(
      (
        await api({
          method: "POST",
          path: `${reportPath}/logs/big?seq=1`,
          headers: { "content-type": "text/plain" },
          body: "x".repeat(256 * 1024 + 1),
        })
      ).status,
    ).toBe(413);
    expect((await get(`${A}/nodes/${node}/install-logs/none`)).status).toBe(404);
    expect((await get(`${A}/nodes/no-such-node/timeline`)).status).toBe(404);
    expect((await get(`${A}/nodes/${node}/timeline`)).body).toEqual(before);
  });

  it("serves the EC2-style tree and network-config under the seed", async () => {
    const node = (await send("POST", `${A}/nodes`, { name: "web-3", identifiers: [MAC] })).body.id as string;
    const { seedUrl, instanceId } = (await send("POST", `${A}/nodes/${node}/instance-credential`, {})).body;
    const path = new URL(seedUrl).pathname;
    expect(await get(`${path}latest/meta-data/instance-id`)).toMatchObject({ status: 200, raw: instanceId });
    expect((await get(`${path}2009-04-04/meta-data/`)).raw).toBe("instance-id\nlocal-hostname\nhostname\n");
    expect((await get(`${path}2021-01-03/meta-data/instance-id`)).status).toBe(404);
    expect(JSON.parse((await get(`${path}network-config`)).raw)).toMatchObject({
      version: 2,
      ethernets: { nic0: { match: { macaddress: MAC } } },
    });
  });
});
