import { api, freshContainer, get, send } from "../support/api";

const A = "/api/1.1";

beforeEach(() => {
  for (const name of ["PROVISIONING_AUTH", "AUTH_USERS", "API_SERVER", "BOOT_VIA_RELAY"]) delete process.env[name];
  process.env.DEMO_NODES = "off";
  freshContainer();
});

const aNode = async () => (await send("POST", `${A}/nodes`, { name: "web-1", identifiers: ["52:54:00:c1:00:01"] })).body.id as string;

describe("cloud-init's NoCloud seed over HTTP", () => {
  it("gives an operator a credential and seed URL once, and the machine its documents by it", async () => {
    const node = await aNode();
    const issued = await send("POST", `${A}/nodes/${node}/instance-credential`, {});
    expect(issued.status).toBe(201);
    expect(issued.body.seedUrl).toMatch(new RegExp(`/api/current/nocloud/${node}\\.[\\w-]{43}/$`));
    expect((await send("PUT", `${A}/nodes/${node}/user-data`, { userData: "#cloud-config\nhostname: web-1\n" })).body).toMatchObject({
      set: true,
      bytes: 30,
    });
    const path = new URL(issued.body.seedUrl).pathname;
    const meta = await get(`${path}meta-data`);
    expect(meta.status).toBe(200);
    expect(meta.headers["content-type"]).toMatch(/^text\/plain/);
    expect(meta.raw).toContain(`instance-id: "${issued.body.instanceId}"`);
    expect((await get(`${path}user-data`)).raw).toBe("#cloud-config\nhostname: web-1\n");
    expect((await get(`${path}vendor-data`)).status).toBe(200);
    expect((await get(`${path}network-config`)).status).toBe(200);
    expect((await get(`${path}other-data`)).status).toBe(404);
    expect((await get(`${A}/nodes/${node}/user-data`)).body).toEqual({
      set: true,
      bytes: 30,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      updatedAt: expect.any(String),
    });
  });

  it("answers 404 to a credential that is not the node's current one, and changes nothing", async () => {
    const node = await aNode();
    const first = (await send("POST", `${A}/nodes/${node}/instance-credential`, {})).body;
    const second = (await send("POST", `${A}/nodes/${node}/instance-credential`, { reinstall: true })).body;
    expect(second.instanceId).not.toBe(first.instanceId);
    expect((await get(`${new URL(first.seedUrl).pathname}meta-data`)).status).toBe(404);
    expect((await get(`${A}/nocloud/${node}.${"x".repeat(43)}/user-data`)).status).toBe(404);
    expect((await get(`${A}/nocloud/not-a-credential/user-data`)).status).toBe(404);
    expect((await get(`${new URL(second.seedUrl).pathname}meta-data`)).status).toBe(200);
  });

  it("refuses bad bodies with 400 and unknown nodes with 404, and asks operators for credentials under PROVISIONING_AUTH", async () => {
    const node = await aNode();
    expect((await send("PUT", `${A}/nodes/${node}/user-data`, { userData: 3 })).status).toBe(400);
    expect((await send("PUT", `${A}/nodes/${node}/user-data`, { userData: "x".repeat(70_000) })).status).toBe(400);
    expect((await send("POST", `${A}/nodes/${node}/instance-credential`, { reinstall: "yes" })).status).toBe(400);
    expect((await send("POST", `${A}/nodes/nope/instance-credential`, {})).status).toBe(404);
    expect((await get(`${A}/nodes/${node}/user-data`)).body).toEqual({ set: false, bytes: 0 });
    Object.assign(process.env, { PROVISIONING_AUTH: "on", AUTH_USERS: "ops:Op3rator-Pa55-Ci" });
    expect(
      (
        await api({
          method: "POST",
          path: `${A}/nodes/${node}/instance-credential`,
          headers: { "content-type": "application/json" },
          body: "{}",
        })
      ).status,
    ).toBe(401);
    expect((await get(`${A}/nodes/${node}/user-data`)).status).toBe(401);
  });
});
