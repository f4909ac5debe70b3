import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callApi, devicesMissing, type LabState, labDown, obmSetting, readLabState, stateFile } from "../../../lab/lab";
import { labMachines } from "../../../lab/machines";
import { labPlan } from "../../../lab/plan";

/**
 * What of `up` and `down` runs without root (issue 52): the service's API as the lab calls it,
 * each machine's OBM setting, and `down` on a lab whose namespace is already gone (after a
 * host's restart): the relay credential revoked, the folder removed. The boot tier's lab test
 * runs `up` and `down` whole.
 */
describe("the lab's state and the service's API", () => {
  let server: Server;
  let url: string;
  const requests: string[] = [];
  let dir: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(`${request.method} ${request.url} ${request.headers.authorization ?? "-"}`);
      if (request.url === "/api/1.1/broken") return response.writeHead(500).end('{"message":"no"}');
      if (request.method === "DELETE") return response.writeHead(200, { "content-type": "application/json" }).end('{"id":"r1"}');
      response.writeHead(200).end(request.url === "/api/1.1/empty" ? "" : '{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lab-state-"));
    requests.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const aState = (): LabState => ({
    plan: labPlan(labMachines(undefined), { dir, octet: 203 }),
    api: { url, user: "ops:secret" },
    kvm: { kvm: false, smm: false },
    bmcPasswords: { "bios-1": "p1", "uefi-1": "p2", "secure-1": "p3" },
    site: { id: "s1", name: "lab-203" },
    relayCredential: "r1",
    sshKey: join(dir, "id_ed25519"),
  });

  it("calls the API with the operator's credential, and says which call failed and whether the service is there at all", async () => {
    expect(await callApi({ url, user: "ops:secret" }, "POST", "/sites", { name: "x" })).toEqual({ ok: true });
    expect(requests).toEqual([`POST /api/1.1/sites Basic ${Buffer.from("ops:secret").toString("base64")}`]);
    expect(await callApi({ url }, "GET", "/empty")).toBeUndefined();
    await expect(callApi({ url }, "GET", "/broken")).rejects.toThrow('GET /api/1.1/broken: 500 {"message":"no"}');
    await expect(callApi({ url: "http://127.0.0.1:9" }, "GET", "/config")).rejects.toThrow(
      "the service at http://127.0.0.1:9 does not answer",
    );
  });

  it("gives each machine's OBM setting as the relay reaches its BMC: IPMI by address, Redfish by URL with its certificate", () => {
    const state = aState();
    expect(obmSetting(state, "secure-1")).toEqual({
      service: "ipmi-obm-service",
      config: { host: "127.0.0.122", user: "admin", password: "p3" },
    });
    mkdirSync(join(dir, "uefi-1", "bmc"), { recursive: true });
    writeFileSync(join(dir, "uefi-1", "bmc", "ca.pem"), "PEM");
    expect(obmSetting(state, "uefi-1")).toEqual({
      service: "redfish-obm-service",
      config: { uri: "https://127.0.0.121", user: "admin", password: "p2", ca: "PEM" },
    });
    expect(() => obmSetting(state, "web-9")).toThrow("web-9 has no BMC in this lab");
  });

  it("takes down a lab whose namespace is gone: revokes its relay credential, removes its folder; says when the service cannot revoke it", async () => {
    writeFileSync(stateFile(dir), JSON.stringify(aState()));
    expect(readLabState(stateFile(dir)).relayCredential).toBe("r1");
    const said: string[] = [];
    expect(await labDown(dir, "lab203", (line) => said.push(line))).toEqual(["relay credential r1", dir]);
    expect(requests).toEqual([expect.stringMatching(/^DELETE \/api\/1\.1\/sites\/s1\/relays\/r1 Basic /)]);
    expect(existsSync(dir)).toBe(false);

    mkdirSync(dir);
    writeFileSync(stateFile(dir), JSON.stringify({ ...aState(), api: { url: "http://127.0.0.1:9" } }));
    expect(await labDown(dir, "lab203", (line) => said.push(line))).toEqual([dir]);
    expect(said).toEqual([expect.stringContaining("the relay credential r1 stays (revoke it in site s1)")]);
    expect(await labDown(dir, "lab203", () => undefined)).toEqual([]);
  });

  it("refuses a NIC this host's QEMU does not have (igb before QEMU 8.0), naming the machine, before anything is made", () => {
    const help = 'Network devices:\nname "e1000e", bus PCI, desc "Intel 82574L GbE Controller"\nname "virtio-net-pci", bus PCI\n';
    const machines = labMachines({
      machines: [
        { name: "a", nics: [{ model: "igb" }, { model: "e1000e" }] },
        { name: "b", nics: [{ model: "virtio" }] },
      ],
    });
    expect(devicesMissing(machines, help)).toEqual([expect.stringMatching(/^a: its QEMU has no igb NIC \(igb came in QEMU 8\.0\)/)]);
    expect(devicesMissing(machines, `${help}name "igb", bus PCI\n`)).toEqual([]);
  });
});
