import { nodeIdForMac } from "../../lib/provisioning/ids";
import { freshContainer, get, send } from "../support/api";
import { discoverMachine } from "../support/microkernelInProcess";

const A = "/api/1.1";
const MAC = "52:54:00:bb:00:01";
const NODE = nodeIdForMac(MAC);

beforeEach(() => {
  for (const name of ["PROVISIONING_AUTH", "AUTH_USERS", "API_SERVER", "DISCOVERY_GRAPH"]) delete process.env[name];
  process.env.DEMO_NODES = "off";
  freshContainer();
});

describe("lookups", () => {
  it("are fed by discovery (the booting MAC at its source address, every NIC lshw reports) and found by ?q= in era C's way", async () => {
    await discoverMachine(MAC);
    // The boot came from the test events' source address.
    const all = (await get(`${A}/lookups`)).body;
    expect(all).toEqual([expect.objectContaining({ node: NODE, macAddress: MAC, ipAddress: "203.0.113.7" })]);
    expect((await get(`${A}/lookups?q=203.0.113.7`)).body).toEqual(all);
    expect((await get(`${A}/lookups?q=${NODE}`)).body).toEqual(all);
    expect((await get(`${A}/lookups?q=52-54-00-BB-00-01`)).body).toEqual(all);
    expect((await get(`${A}/lookups?q=10.9.9.9`)).body).toEqual([]);
    // docker-machine-rackhd: the node's IPs by its id.
    expect((await get(`${A}/lookups?q=${NODE}`)).body.map((l: { ipAddress: string }) => l.ipAddress)).toEqual(["203.0.113.7"]);
  });

  it("answers RackHD's statuses: POST 200, a duplicate MAC or IP 400, GET/PATCH/DELETE by id, 404 with its text", async () => {
    const created = await send("POST", `${A}/lookups`, { macAddress: "08:00:27:AA:BB:CC", ipAddress: "10.1.1.1", node: NODE });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ macAddress: "08:00:27:aa:bb:cc", ipAddress: "10.1.1.1", node: NODE });
    expect(await send("POST", `${A}/lookups`, { macAddress: "08-00-27-aa-bb-cc" })).toMatchObject({
      status: 400,
      body: { message: "A lookup with macAddress 08:00:27:aa:bb:cc already exists" },
    });
    expect((await send("POST", `${A}/lookups`, { macAddress: "08:00:27:aa:bb:cd", ipAddress: "10.1.1.1" })).status).toBe(400);
    expect((await send("POST", `${A}/lookups`, { ipAddress: "10.1.1.2" })).body).toEqual({
      message: "macAddress must be a MAC address such as 08:00:27:27:eb:12",
    });
    expect((await send("POST", `${A}/lookups`, { macAddress: "nope" })).status).toBe(400);
    expect((await send("POST", `${A}/lookups`, { macAddress: "08:00:27:aa:bb:ce", ipAddress: "300.1.1.1" })).status).toBe(400);
    const { id } = created.body;
    expect((await get(`${A}/lookups/${id}`)).body).toEqual(created.body);
    const patched = await send("PATCH", `${A}/lookups/${id}`, { ipAddress: "10.1.1.9" });
    expect(patched).toMatchObject({ status: 200, body: { ipAddress: "10.1.1.9", macAddress: "08:00:27:aa:bb:cc" } });
    expect((await get(`${A}/lookups?q=10.1.1.1`)).body).toEqual([]);
    expect((await send("DELETE", `${A}/lookups/${id}`)).body).toMatchObject({ id, ipAddress: "10.1.1.9" });
    expect(await get(`${A}/lookups/${id}`)).toMatchObject({
      status: 404,
      body: { message: `Could not find lookup with criteria {"id":"${id}"}.` },
    });
    expect((await send("PATCH", `${A}/lookups/${id}`, { ipAddress: "10.1.1.3" })).status).toBe(404);
    expect((await send("DELETE", `${A}/lookups/${id}`)).status).toBe(404);
    expect((await get(`${A}/lookups`)).body).toEqual([]);
  });

  it("keep their MAC when the node is deleted, with node blanked (RackHD)", async () => {
    await discoverMachine(MAC);
    expect((await send("DELETE", `${A}/nodes/${NODE}`)).status).toBe(200);
    expect((await get(`${A}/lookups`)).body).toEqual([expect.objectContaining({ node: "", macAddress: MAC })]);
  });
});

/**
 * Under `npm start` every function's bundle runs in one process and shares one store, made by
 * whichever bundle came first: its errors are instances of that bundle's classes. Here the store
 * comes from a second copy of the modules (as another bundle's would), so a check by `instanceof`
 * would miss its errors.
 */
describe("lookups on a store another bundle made", () => {
  beforeEach(() => {
    let otherBundles: typeof import("../../lib/store/memory/provisioningStores") | undefined;
    jest.isolateModules(() => {
      otherBundles = require("../../lib/store/memory/provisioningStores");
    });
    const stores = otherBundles!.memoryProvisioningStores({ capacity: 1000, maxBytes: 10_000_000 });
    (globalThis as Record<symbol, unknown>)[Symbol.for("lambda-tasks-provisioning.provisioningStores.memory")] = Promise.resolve(stores);
  });

  it("answers 400 for a taken MAC or IP, not 500", async () => {
    expect((await send("POST", `${A}/lookups`, { macAddress: "08:00:27:aa:bb:01", ipAddress: "10.2.2.2" })).status).toBe(200);
    expect(await send("POST", `${A}/lookups`, { macAddress: "08:00:27:aa:bb:01" })).toMatchObject({
      status: 400,
      body: { message: "A lookup with macAddress 08:00:27:aa:bb:01 already exists" },
    });
    expect((await send("POST", `${A}/lookups`, { macAddress: "08:00:27:aa:bb:02", ipAddress: "10.2.2.2" })).status).toBe(400);
  });

  it("boots many new machines from one address at once: every answer 200, the address with one of them", async () => {
    const macs = Array.from({ length: 16 }, (_, i) => `52:54:00:cc:00:${i.toString(16).padStart(2, "0")}`);
    const answers = await Promise.all(macs.map((mac) => get(`${A}/profiles?macs=${mac}`)));
    expect(answers.map((answer) => answer.status)).toEqual(macs.map(() => 200));
    const holders = (await get(`${A}/lookups?q=203.0.113.7`)).body as { macAddress: string }[];
    expect(holders).toHaveLength(1);
    expect(macs).toContain(holders[0].macAddress);
    expect((await get(`${A}/lookups`)).body).toHaveLength(16);
  });
});

describe("DHCP whitelist", () => {
  it("takes MACs in RackHD's form (201 with the whole list), each once; DELETE answers 204 either way", async () => {
    expect(await send("POST", `${A}/nodes/08:00:27:27:EB:12/dhcp/whitelist`)).toMatchObject({ status: 201, body: ["08-00-27-27-eb-12"] });
    expect((await send("POST", `${A}/nodes/08-00-27-27-eb-13/dhcp/whitelist`)).body).toEqual(["08-00-27-27-eb-12", "08-00-27-27-eb-13"]);
    expect((await send("POST", `${A}/nodes/08:00:27:27:eb:12/dhcp/whitelist`)).body).toHaveLength(2);
    expect((await send("DELETE", `${A}/nodes/08:00:27:27:eb:12/dhcp/whitelist`)).status).toBe(204);
    expect((await send("DELETE", `${A}/nodes/08:00:27:27:eb:12/dhcp/whitelist`)).status).toBe(204);
    expect((await send("POST", `${A}/nodes/08:00:27:27:eb:14/dhcp/whitelist`)).body).toEqual(["08-00-27-27-eb-13", "08-00-27-27-eb-14"]);
    expect(await send("POST", `${A}/nodes/fooey/dhcp/whitelist`)).toMatchObject({
      status: 400,
      body: { message: "Invalid MAC address: fooey" },
    });
  });
});
