import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { http, type OfflineServer, startOffline } from "../support/offlineServer";

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
  const api = (method: string, path: string, body?: unknown) =>
    http(server.baseUrl, method, `${A}${path}`, {
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

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

  it("gives cloud-init the instance id, host name, SSH key and user-data the service holds for the machine", async () => {
    const node = (await api("POST", "/nodes", { name: "web-1", identifiers: ["52:54:00:c1:0e:01"] })).body.id as string;
    const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB5x3l4Zk2QxKq7nq9V0k0Yt2nM1o2Yl1mQz4c9bM2nX ops@lab";
    expect(
      (await api("POST", `/nodes/${node}/ssh`, { host: "10.0.0.5", user: "ops", publicKey: key, password: "unused-Pa55" })).status,
    ).toBe(201);
    const userData = "#cloud-config\nhostname: web-1\nusers:\n  - name: ops\n    ssh_authorized_keys:\n      - " + key + "\n";
    expect((await api("PUT", `/nodes/${node}/user-data`, { userData })).status).toBe(200);
    const issued = (await api("POST", `/nodes/${node}/instance-credential`, {})).body;

    const seed = await readSeeded(issued.seedUrl);
    expect(seed.md).toEqual({ "instance-id": issued.instanceId, "local-hostname": "web-1", "public-keys": [key] });
    expect(seed.ud).toBe(userData);
    expect(seed.vd).toBe("#cloud-config\n{}\n");
    expect(await schemaErrors(seed.ud!, "user-data")).toBe("");
    expect(await schemaErrors(seed.vd!, "vendor-data")).toBe("");
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
});
