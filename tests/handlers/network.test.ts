import { api, freshContainer } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

/**
 * Subnets, their addresses and nodes' network plans through the handlers (real API Gateway v2
 * events), northbound auth on: every answer and refusal (issue 54), and the seed that carries a plan.
 */
const A = "/api/1.1";
const OPERATOR = { authorization: basic("ops", "Op3rator-Pa55-Rl") };
const M1 = "52:54:00:54:00:01";
const M2 = "52:54:00:54:00:02";

const operator = async (method: string, path: string, body?: unknown) =>
  api({
    method,
    path,
    headers: { ...OPERATOR, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

beforeEach(() => {
  Object.assign(process.env, { DEMO_NODES: "off", PROVISIONING_AUTH: "on", AUTH_USERS: "ops:Op3rator-Pa55-Rl", LOG_REQUESTS: "off" });
  freshContainer();
});

const SUBNET = {
  name: "prod-vlan20",
  cidr: "10.20.0.0/24",
  gateway: "10.20.0.1",
  nameservers: ["10.20.0.1"],
  vlan: 20,
  ranges: [
    { kind: "boot", start: "10.20.0.100", end: "10.20.0.199" },
    { kind: "pool", start: "10.20.0.10", end: "10.20.0.99" },
  ],
};

describe("subnets", () => {
  it("creates, lists (by site), gets, changes and deletes a subnet", async () => {
    const made = await operator("POST", `${A}/subnets`, SUBNET);
    expect(made).toMatchObject({
      status: 201,
      body: { ...SUBNET, searchDomains: [], poolSize: "90", id: expect.stringMatching(/^[0-9a-f]{24}$/) },
    });
    const id = made.body.id;
    expect((await operator("GET", `${A}/subnets`)).body).toEqual([made.body]);
    expect((await operator("GET", `${A}/subnets?site=elsewhere`)).body).toEqual([]);
    expect((await operator("GET", `${A}/subnets/${id}`)).body).toEqual(made.body);
    const changed = await operator("PATCH", `${A}/subnets/${id}`, { searchDomains: ["lab.example"], gateway: null, mtu: 9000 });
    expect(changed).toMatchObject({ status: 200, body: { searchDomains: ["lab.example"], mtu: 9000 } });
    expect(changed.body).not.toHaveProperty("gateway");
    expect((await operator("DELETE", `${A}/subnets/${id}`)).status).toBe(204);
    expect((await operator("GET", `${A}/subnets/${id}`)).status).toBe(404);
    expect((await operator("DELETE", `${A}/subnets/${id}`)).status).toBe(404);
  });

  it.each([
    [{ ...SUBNET, cidr: "10.20.0.5/24" }, "cidr 10.20.0.5/24 is not a network address with its prefix length"],
    [{ ...SUBNET, vlan: 5000 }, "vlan must be a VLAN id from 1 to 4094, or null"],
    [{ ...SUBNET, ranges: [{ kind: "dynamic", start: "10.20.0.1", end: "10.20.0.2" }] }, "ranges must be at most 32 objects"],
    [{ ...SUBNET, gateway: "10.20.0.50" }, "gateway 10.20.0.50 is inside a pool"],
    [{ name: "x" }, "cidr must be a network address with its prefix length"],
  ])("refuses %j with a 400 that names it", async (body, message) => {
    const answer = await operator("POST", `${A}/subnets`, body);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain(message);
    expect((await operator("GET", `${A}/subnets`)).body).toEqual([]);
  });

  it("refuses a subnet of a site that does not exist, and one overlapping another of the site", async () => {
    expect((await operator("POST", `${A}/subnets`, { ...SUBNET, site: "0123456789abcdef01234567" })).status).toBe(404);
    await operator("POST", `${A}/subnets`, SUBNET);
    const overlapping = await operator("POST", `${A}/subnets`, { name: "b", cidr: "10.20.0.0/16" });
    expect(overlapping.status).toBe(400);
    expect(overlapping.body.message).toMatch(/overlaps subnet \w+ \(10\.20\.0\.0\/24\) of the same site/);
  });
});

describe("a node's network plan", () => {
  async function planned() {
    const subnet = (await operator("POST", `${A}/subnets`, SUBNET)).body;
    const node = (await operator("POST", `${A}/nodes`, { name: "n1", identifiers: [M1, M2] })).body;
    const plan = {
      interfaces: [
        { name: "bond0", type: "bond", mode: "active-backup", members: [M1, M2] },
        { name: "bond0.20", type: "vlan", link: "bond0", vlan: 20, subnet: subnet.id, address: "auto" },
      ],
    };
    return { subnet, node, plan };
  }

  it("answers an empty plan, sets one with its address given, lists the address under its subnet, and removes it", async () => {
    const { subnet, node, plan } = await planned();
    expect((await operator("GET", `${A}/nodes/${node.id}/network`)).body).toMatchObject({
      interfaces: [],
      given: [],
      netplan: { version: 2, ethernets: {} },
    });
    const set = await operator("PUT", `${A}/nodes/${node.id}/network`, plan);
    expect(set).toMatchObject({
      status: 200,
      body: { node: node.id, missingMacs: [], given: [{ interface: "bond0.20", address: "10.20.0.10" }] },
    });
    expect((await operator("GET", `${A}/nodes/${node.id}/network`)).body).toEqual(set.body);
    expect((await operator("GET", `${A}/subnets/${subnet.id}/addresses`)).body).toEqual([
      expect.objectContaining({ address: "10.20.0.10", node: node.id, interface: "bond0.20" }),
    ]);
    // The node's own record says nothing a PATCH could set: the plan is written by its route only.
    expect((await operator("PATCH", `${A}/nodes/${node.id}`, { network: { interfaces: [] } })).status).toBe(200);
    expect((await operator("GET", `${A}/nodes/${node.id}/network`)).body.given).toHaveLength(1);
    // A subnet with a given address keeps its ranges, and is not deleted.
    expect((await operator("PATCH", `${A}/subnets/${subnet.id}`, { ranges: [] })).status).toBe(409);
    expect((await operator("DELETE", `${A}/subnets/${subnet.id}`)).status).toBe(409);
    expect((await operator("DELETE", `${A}/nodes/${node.id}/network`)).status).toBe(204);
    expect((await operator("GET", `${A}/subnets/${subnet.id}/addresses`)).body).toEqual([]);
    expect((await operator("DELETE", `${A}/subnets/${subnet.id}`)).status).toBe(204);
  });

  it("pages a subnet's addresses in address order", async () => {
    const subnet = (await operator("POST", `${A}/subnets`, SUBNET)).body;
    for (let n = 1; n <= 5; n += 1) {
      const mac = `52:54:00:54:01:0${n}`;
      const node = (await operator("POST", `${A}/nodes`, { name: `n${n}`, identifiers: [mac] })).body;
      expect(
        (
          await operator("PUT", `${A}/nodes/${node.id}/network`, {
            interfaces: [{ name: "eno1", type: "ethernet", mac, subnet: subnet.id, address: "auto" }],
          })
        ).status,
      ).toBe(200);
    }
    const seen: string[] = [];
    let path = `${A}/subnets/${subnet.id}/addresses?limit=2`;
    for (let pages = 0; pages < 5 && path; pages += 1) {
      const page = await operator("GET", path);
      expect(page.status).toBe(200);
      seen.push(...page.body.map((each: { address: string }) => each.address));
      path = /<([^>]+)>; rel="next"/.exec(page.headers?.link ?? "")?.[1] ?? "";
    }
    expect(seen).toEqual(["10.20.0.10", "10.20.0.11", "10.20.0.12", "10.20.0.13", "10.20.0.14"]);
    expect((await operator("GET", `${A}/subnets/${subnet.id}/addresses?limit=2&next=bm90LWEtdG9rZW4`)).status).toBe(400);
  });

  it("refuses a bad plan with a 400 naming it, a taken address with a 409, an unknown node with a 404, and changes nothing", async () => {
    const { subnet, node, plan } = await planned();
    const bad = await operator("PUT", `${A}/nodes/${node.id}/network`, { interfaces: [{ name: "Bond0", type: "bond" }] });
    expect(bad.status).toBe(400);
    const twice = await operator("PUT", `${A}/nodes/${node.id}/network`, { interfaces: [plan.interfaces[0], { ...plan.interfaces[0] }] });
    expect(twice).toMatchObject({ status: 400, body: { message: expect.stringContaining("the name bond0 is in the plan twice") } });
    const other = (await operator("POST", `${A}/nodes`, { name: "n2", identifiers: ["52:54:00:54:00:03"] })).body;
    await operator("PUT", `${A}/nodes/${other.id}/network`, {
      interfaces: [{ name: "eno1", type: "ethernet", mac: "52:54:00:54:00:03", subnet: subnet.id, address: "10.20.0.10" }],
    });
    const taken = await operator("PUT", `${A}/nodes/${node.id}/network`, {
      interfaces: [plan.interfaces[0], { ...plan.interfaces[1], address: "10.20.0.10" }],
    });
    expect(taken).toMatchObject({ status: 409, body: { message: expect.stringContaining(`is node ${other.id}'s (eno1)`) } });
    expect((await operator("GET", `${A}/nodes/${node.id}/network`)).body.interfaces).toEqual([]);
    expect((await operator("PUT", `${A}/nodes/0123456789abcdef01234567/network`, plan)).status).toBe(404);
    expect((await operator("GET", `${A}/nodes/0123456789abcdef01234567/network`)).status).toBe(404);
  });

  it("refuses the deploy of a node whose plan names a MAC the machine does not have, saying which", async () => {
    const { subnet } = await planned();
    const node = (
      await operator("POST", `${A}/nodes`, {
        name: "m1",
        identifiers: ["52:54:00:54:00:05"],
        obmSettings: [{ service: "noop-obm-service", config: {} }],
      })
    ).body;
    const plan = { interfaces: [{ name: "eno9", type: "ethernet", mac: "52:54:00:54:00:09", subnet: subnet.id, address: "auto" }] };
    expect((await operator("PUT", `${A}/nodes/${node.id}/network`, plan)).body.missingMacs).toEqual(["52:54:00:54:00:09"]);
    // Provide asks for a catalog, which discovery stores: the memory store is reached through the container.
    const { provisioningStores } = await import("../../lib/store/compositionRoot");
    const stamp = new Date().toISOString();
    await (await provisioningStores()).catalogs.add([
      { id: "c1", node: node.id, source: "dmi", data: {}, createdAt: stamp, updatedAt: stamp },
    ]);
    expect((await operator("POST", `${A}/nodes/${node.id}/actions`, { action: "provide" })).status).toBe(202);
    expect((await operator("POST", `${A}/nodes/${node.id}/actions`, { action: "allocate", options: { owner: "t" } })).status).toBe(202);
    const deploy = await operator("POST", `${A}/nodes/${node.id}/actions`, {
      action: "deploy",
      options: { graph: "Graph.InstallImage", options: { "install-os": { image: "debian.raw" } } },
    });
    expect(deploy).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining("names 52:54:00:54:00:09, which the machine does not have") },
    });
    expect((await operator("GET", `${A}/nodes/${node.id}`)).body.provisionState).toBe("allocated");
    // Fixed: the deploy runs, its address given (and recorded as the MAC's lookup).
    const fixed = { interfaces: [{ name: "eno1", type: "ethernet", mac: "52:54:00:54:00:05", subnet: subnet.id, address: "auto" }] };
    expect((await operator("PUT", `${A}/nodes/${node.id}/network`, fixed)).body.missingMacs).toEqual([]);
    // A boot's DHCP lease moved the lookup meanwhile: the deploy points it at the plan's address again.
    const { recordAddress } = await import("../../lib/provisioning/lookups/lookupService");
    await recordAddress(await provisioningStores(), "52:54:00:54:00:05", node.id, "10.20.0.150", new Date());
    const again = await operator("POST", `${A}/nodes/${node.id}/actions`, {
      action: "deploy",
      options: { graph: "Graph.InstallImage", options: { "install-os": { image: "debian.raw" } } },
    });
    expect(again.status).toBe(202);
    expect((await operator("GET", `${A}/lookups?q=52:54:00:54:00:05`)).body).toEqual([
      expect.objectContaining({ ipAddress: "10.20.0.11" }),
    ]);
  });
});
