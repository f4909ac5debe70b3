import { randomBytes } from "node:crypto";
import { freePort, type OfflineServer, onDynamoDb, rackhdApi, startOffline } from "../support/offlineServer";
import { type RelayProcess, startRelayProcess } from "../support/relayProcess";

jest.setTimeout(180_000);

/**
 * Boot traffic through a site's relay (issue 24 §7), both stores: with BOOT_VIA_RELAY=on the
 * service refuses a boot request that no relay forwarded, and the relay's boot server (the built
 * dist/relay.cjs with --listen) carries the machines' requests, renders every URL onto itself,
 * fetches large files from the bucket for them, and a machine discovered through it joins its site.
 */
describe("boot traffic through a site's relay (BOOT_VIA_RELAY=on)", () => {
  let server: OfflineServer;
  let relay: RelayProcess;
  let boot: string;
  let site: string;
  const api = rackhdApi(() => server.baseUrl);

  beforeAll(async () => {
    server = await startOffline({ DEMO_NODES: "off", BOOT_VIA_RELAY: "on" });
    site = (await api("POST", "/sites", { name: "boot-lab" })).body.id;
    const { token } = (await api("POST", `/sites/${site}/relays`, {})).body;
    const port = await freePort();
    boot = `http://127.0.0.1:${port}`;
    relay = startRelayProcess(server.baseUrl, token, ["--listen", `127.0.0.1:${port}`]);
    await relay.waitFor("boot: serving");
  });

  afterAll(async () => {
    relay?.stop();
    await server?.stop();
  });

  it("refuses a boot request sent straight to the service (401), and serves it through the relay", async () => {
    const direct = await fetch(`${server.baseUrl}/api/current/profiles?macs=52:54:00:b0:07:aa`);
    expect(direct.status).toBe(401);
    expect(await direct.json()).toEqual({ message: expect.any(String) });

    const viaRelay = await fetch(`${boot}/api/current/profiles?macs=52:54:00:b0:07:aa`);
    expect(viaRelay.status).toBe(200);
    const script = await viaRelay.text();
    expect(script).toMatch(/^#!ipxe/);
    // Every URL the machine is sent to is the relay's: it needs no route to the service.
    expect(script).toContain(`${boot}/common/vmlinuz-3.16.0-25-generic`);
    expect(script).not.toContain(server.baseUrl);
  });

  it("puts a machine discovered through a relay in the relay's site", async () => {
    expect((await api("GET", "/nodes/52:54:00:b0:07:aa")).body).toMatchObject({ name: "52:54:00:b0:07:aa", site });
  });

  it("streams the file routes' bytes, large ones fetched from the bucket by the relay", async () => {
    const bytes = randomBytes(onDynamoDb() ? 7 * 1024 * 1024 : 300 * 1024);
    const ask = await api("PUT", `/files/boot.img?size=${bytes.length}`);
    expect((await fetch(ask.headers.get("location")!, { method: "PUT", body: bytes })).ok).toBe(true);
    expect((await fetch(`${server.baseUrl}/common/boot.img`)).status).toBe(401);
    const got = await fetch(`${boot}/common/boot.img`);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("forwards only what a booting machine asks for", async () => {
    expect((await fetch(`${boot}/api/1.1/nodes`)).status).toBe(404);
    expect((await fetch(`${boot}/api/1.1/sites`, { method: "POST", body: "{}" })).status).toBe(404);
    // The operator's routes are unchanged: no relay credential needed or accepted there.
    expect((await api("GET", "/nodes")).status).toBe(200);
  });
});
