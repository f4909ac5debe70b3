import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { vendorData } from "../../lib/provisioning/cloudInit/seedService";
import { http, type OfflineServer, rackhdApi, startOffline } from "../support/offlineServer";

jest.setTimeout(180_000);
const run = promisify(execFile);
const A = "/api/1.1";
/** Debian's Python, which Debian's cloud-init is installed for (a pyenv or venv `python3` first on PATH is not). */
const PYTHON = "/usr/bin/python3";

/** Whether Debian's cloud-init (its Python package) is on this machine. */
const cloudInitMissing = (): boolean => {
  try {
    execFileSync(PYTHON, ["-c", "import cloudinit.util"], { stdio: "ignore" });
    return false;
  } catch {
    return true;
  }
};

/**
 * cloud-init's own code reads the service's NoCloud seed (issue 26): `util.read_seeded`, which
 * its NoCloud datasource calls for an `s=http://…/` seed, against `serverless offline` (both
 * stores: the e2e-dynamodb tier runs this file too); and `cloud-init schema` checks the documents.
 */
const missing = cloudInitMissing();
if (missing) process.stdout.write("cloud-init e2e: not run: Debian's cloud-init is missing (apt-get install cloud-init)\n");

(missing ? describe.skip : describe)("cloud-init reading the service's NoCloud seed", () => {
  let server: OfflineServer;
  const dir = mkdtempSync(join(tmpdir(), "cloud-init-"));
  const api = rackhdApi(() => server.baseUrl);

  beforeAll(async () => {
    server = await startOffline({ DEMO_NODES: "off" });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What cloud-init's `read_seeded` makes of a seed URL: meta-data parsed, user-data and vendor-data as given. */
  const readSeeded = async (seedUrl: string) => {
    const script = [
      "import json, sys",
      "from cloudinit import util",
      "md, ud, vd = util.read_seeded(sys.argv[1], timeout=5, retries=0)",
      "print(json.dumps({'md': md, 'ud': ud.decode() if ud is not None else None, 'vd': vd.decode() if vd is not None else None}))",
    ].join("\n");
    const { stdout } = await run(PYTHON, ["-c", script, seedUrl]);
    return JSON.parse(stdout) as { md: Record<string, unknown> | null; ud: string | null; vd: string | null };
  };

  const schemaErrors = async (document: string, name: string) => {
    const file = join(dir, name);
    writeFileSync(file, document);
    return run("cloud-init", ["schema", "--config-file", file]).then(
      () => "",
      (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
    );
  };

  /** The parts of a vendor-data as cloud-init's UserDataProcessor makes them: each part's type and text. */
  const vendorParts = async (document: string) => {
    const script = [
      "import json, sys, tempfile",
      "from cloudinit import helpers, user_data",
      "d = tempfile.mkdtemp()",
      "message = user_data.UserDataProcessor(helpers.Paths({'cloud_dir': d, 'run_dir': d})).process(sys.stdin.buffer.read())",
      "print(json.dumps([{'type': p.get_content_type(), 'payload': p.get_payload(decode=True).decode()} for p in message.walk() if p.get_content_maintype() != 'multipart']))",
    ].join("\n");
    const child = run(PYTHON, ["-c", script]);
    child.child.stdin?.end(document);
    return JSON.parse((await child).stdout) as { type: string; payload: string }[];
  };

  it("gives cloud-init the instance id, host name, SSH key and user-data the service holds for the machine", async () => {
    const node = (await api("POST", "/nodes", { name: "web-1", identifiers: ["52:54:00:c1:0e:01"] })).body.id as string;
    const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB5x3l4Zk2QxKq7nq9V0k0Yt2nM1o2Yl1mQz4c9bM2nX ops@lab";
    expect(
      (await api("POST", `/nodes/${node}/ssh`, { host: "10.0.0.5", user: "ops", publicKey: key, password: "unused-Pa55" })).status,
    ).toBe(201);
    const userData = `#cloud-config\nhostname: web-1\nusers:\n  - name: ops\n    ssh_authorized_keys:\n      - ${key}\n`;
    expect((await api("PUT", `/nodes/${node}/user-data`, { userData })).status).toBe(200);
    const issued = (await api("POST", `/nodes/${node}/instance-credential`, {})).body;

    const seed = await readSeeded(issued.seedUrl);
    expect(seed.md).toEqual({ "instance-id": issued.instanceId, "local-hostname": "web-1", "public-keys": [key] });
    expect(seed.ud).toBe(userData);
    const reportUrl = issued.seedUrl.replace("/nocloud/", "/reports/").replace(/\/$/, "");
    expect(seed.vd).toBe(vendorData(reportUrl));
    expect(await schemaErrors(seed.ud!, "user-data")).toBe("");
    // cloud-init's own MIME reading finds its two parts: the reporting config (schema-valid) and the address script.
    const parts = await vendorParts(seed.vd!);
    expect(parts.map((part) => part.type)).toEqual(["text/cloud-config", "text/x-shellscript"]);
    expect(await schemaErrors(parts[0].payload, "vendor-data")).toBe("");
  });

  it("gives an empty #cloud-config where the node has no user-data, and nothing to a credential that is not current", async () => {
    const node = (await api("POST", "/nodes", { name: "db-1", identifiers: ["52:54:00:c1:0e:02"] })).body.id as string;
    const old = (await api("POST", `/nodes/${node}/instance-credential`, {})).body;
    const current = (await api("POST", `/nodes/${node}/instance-credential`, { reinstall: true })).body;
    const seed = await readSeeded(current.seedUrl);
    expect(seed.ud).toBe("#cloud-config\n{}\n");
    expect(seed.md?.["instance-id"]).toBe(current.instanceId);
    expect(await schemaErrors(seed.ud!, "empty-user-data")).toBe("");
    // cloud-init gets nothing from the old seed: its meta-data answers 404, which fails the datasource.
    await expect(readSeeded(old.seedUrl)).rejects.toThrow(/UrlError: 404 Client Error: Not Found for url: .*\/meta-data/);
  });
  it("takes the events cloud-init's own webhook reporting handler posts, as its vendor-data configures it", async () => {
    const node = (await api("POST", "/nodes", { name: "web-4", identifiers: ["52:54:00:c1:0e:04"] })).body.id as string;
    const issued = (await api("POST", `/nodes/${node}/instance-credential`, {})).body;
    const { vd } = await readSeeded(issued.seedUrl);
    const endpoint = /"endpoint": "([^"]+)"/.exec(vd!)![1];
    // cloud-init's handler, as its reporting config makes it: a start and a finish with a posted file.
    const script = [
      "import sys",
      "from cloudinit.reporting import events",
      "from cloudinit.reporting.handlers import WebHookHandler",
      "handler = WebHookHandler(endpoint=sys.argv[1])",
      "handler.publish_event(events.ReportingEvent('start', 'init-network', 'searching for network datasources'))",
      "handler.publish_event(events.FinishReportingEvent('modules-final', 'running modules for final', events.status.SUCCESS, post_files=[sys.argv[2]]))",
      "handler.flush()",
    ].join("\n");
    const posted = join(dir, "cloud-init-output.log");
    writeFileSync(posted, "Cloud-init v. 22.4.2 finished\n");
    await run(PYTHON, ["-c", script, endpoint, posted]);
    const timeline = (await api("GET", `/nodes/${node}/timeline`)).body;
    expect(timeline.entries.map((entry: { what: string }) => entry.what)).toEqual(["start init-network", "finish modules-final SUCCESS"]);
    expect(timeline.entries[1].event).toMatchObject({ origin: "cloudinit", description: "running modules for final" });
    expect((await api("GET", `/nodes/${node}/install-logs/cloud-init-output.log`)).raw).toBe("Cloud-init v. 22.4.2 finished\n");
  });

  it("runs the vendor-data's script as the installed system does: its NICs and addresses reach the node (issue 50)", async () => {
    const node = (await api("POST", "/nodes", { name: "web-5", identifiers: ["52:54:00:c1:0e:06"] })).body.id as string;
    const issued = (await api("POST", `/nodes/${node}/instance-credential`, {})).body;
    const parts = await vendorParts((await readSeeded(issued.seedUrl)).vd!);
    // This host's own `ip -j addr`: every Ethernet NIC it has, with its global addresses.
    await run(PYTHON, ["-c", parts[1].payload]);
    const expected = (JSON.parse((await run("ip", ["-j", "addr", "show"])).stdout) as { link_type: string; ifname: string }[])
      .filter((link) => link.link_type === "ether")
      .map((link) => link.ifname);
    const shown = (await api("GET", `/nodes/${node}`)).body.addresses;
    expect(shown).toMatchObject({ source: "installed-system", reportedAt: expect.any(String) });
    expect(shown.nics.map((nic: { name: string }) => nic.name)).toEqual(expected.slice(0, 16));
    const timeline = (await api("GET", `/nodes/${node}/timeline`)).body;
    expect(timeline.entries.map((entry: { what: string }) => entry.what)).toContain("progress addresses");
  });

  it("serves an Ubuntu installer an autoinstall config that cloud-init's schema accepts", async () => {
    const node = (
      await api("POST", "/nodes", {
        name: "ubu-1",
        identifiers: ["52:54:00:c1:0e:05"],
        obmSettings: [{ service: "noop-obm-service", config: {} }],
      })
    ).body.id as string;
    const started = await api("POST", `/nodes/${node}/workflows`, {
      name: "Graph.InstallUbuntuAutoinstall",
      options: { "install-os": { repo: "http://mirror.example/ubuntu" } },
    });
    expect(started.status).toBe(201);
    const profile = (await http(server.baseUrl, "GET", `${A}/profiles?macs=52:54:00:c1:0e:05`)).raw;
    const seedUrl = /ds=nocloud;s=(\S+)/.exec(profile)![1];
    const seed = await readSeeded(seedUrl);
    expect(seed.md?.["instance-id"]).toMatch(/-installer$/);
    expect(seed.ud).toContain('"autoinstall"');
    expect(await schemaErrors(seed.ud!, "autoinstall-user-data")).toBe("");
    expect(await schemaErrors(seed.vd!, "autoinstall-vendor-data")).toBe("");
  });
});
