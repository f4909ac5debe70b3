import { nodeIdForMac } from "../../lib/provisioning/ids";
import { api, freshContainer } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

const A = "/api/1.1";
const NODE = nodeIdForMac("08:00:27:27:eb:12");
const SECRETS = { user: "Op3rator-Pa55-Xq", ssh: "Ssh-Pa55-Zr91", key: "-----BEGIN OPENSSH PRIVATE KEY----- Kq7" };
const AUTH = { authorization: basic("ops", SECRETS.user) };

/** Every answer and every log line of the file, searched for the secrets at the end. */
const seen: string[] = [];
const realWrite = process.stdout.write.bind(process.stdout);
beforeAll(() => {
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    seen.push(String(chunk));
    return realWrite(chunk, ...rest);
  }) as typeof process.stdout.write;
});
afterAll(() => {
  process.stdout.write = realWrite;
  for (const secret of Object.values(SECRETS)) expect(seen.join("\n")).not.toContain(secret);
});

const call = async (method: string, path: string, body?: unknown) => {
  const answer = await api({
    method,
    path,
    headers: { ...AUTH, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  seen.push(answer.raw);
  return answer;
};

beforeEach(() => {
  for (const name of ["API_SERVER", "DISCOVERY_GRAPH", "FILE_SERVER"]) delete process.env[name];
  Object.assign(process.env, { DEMO_NODES: "on", PROVISIONING_AUTH: "on", AUTH_USERS: `ops:${SECRETS.user}`, LOG_REQUESTS: "on" });
  freshContainer();
});
afterEach(() => {
  for (const name of ["PROVISIONING_AUTH", "AUTH_USERS"]) delete process.env[name];
});

describe("config and versions", () => {
  it("answers RackHD's keys FIT checks, this service's settings, and no secret", async () => {
    const config = await call("GET", `${A}/config`);
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      apiServerAddress: "abc123.execute-api.us-east-1.amazonaws.com",
      apiServerPort: 443,
      amqp: null,
      mongo: null,
      broadcastaddr: null,
      subnetmask: null,
      PATH: expect.any(String),
      provisioningAuth: true,
      discoveryGraph: "Graph.SKU.Discovery",
      httpEndpoints: [
        expect.objectContaining({ routers: "northbound-api-router", authEnabled: true, httpsEnabled: true, port: 443 }),
        expect.anything(),
      ],
    });
    expect(config.raw).not.toContain("ops:");
  });

  it("sets run-time keys for every container (FIT's logColorEnable round trip), and refuses to change a deployment key", async () => {
    const saved = (await call("GET", `${A}/config`)).body;
    const patched = await call("PATCH", `${A}/config`, { logColorEnable: true, nested: { a: 1 } });
    expect(patched).toMatchObject({ status: 200, body: { logColorEnable: true, nested: { a: 1 } } });
    expect((await call("PATCH", `${A}/config`, { nested: { b: 2 } })).body.nested).toEqual({ b: 2 });
    expect((await call("GET", `${A}/config`)).body).toMatchObject({ logColorEnable: true, nested: { b: 2 } });
    // FIT PATCHes back the whole config it saved: the deployment keys with their own values are fine.
    expect((await call("PATCH", `${A}/config`, { ...saved, logColorEnable: false })).body).toMatchObject({
      ...saved,
      logColorEnable: false,
    });
    expect(await call("PATCH", `${A}/config`, { provisioningAuth: false })).toMatchObject({
      status: 400,
      body: { message: "provisioningAuth is set by the deployment (its environment) and cannot change at run time" },
    });
    expect((await call("PATCH", `${A}/config`, { sharedKey: "x", apiSecret: "y" })).body).toMatchObject({
      sharedKey: "REDACTED",
      apiSecret: "REDACTED",
    });
    expect((await call("PATCH", `${A}/config`, [1])).status).toBe(400);
  });

  it("lists the versions of what serves the API", async () => {
    const versions = await call("GET", `${A}/versions`);
    expect(versions.body).toEqual([
      { package: "lambda-tasks-provisioning", version: expect.stringMatching(/^\d+\.\d+\.\d+/) },
      { package: "nodejs", version: process.versions.node },
    ]);
  });
});

describe("SSH settings", () => {
  it("answers 204 without settings, stores them (201 with the node), and never answers the password or the key", async () => {
    expect((await call("GET", `${A}/nodes/${NODE}/ssh`)).status).toBe(204);
    const set = await call("POST", `${A}/nodes/${NODE}/ssh`, { host: "10.1.1.5", user: "root", password: SECRETS.ssh });
    expect(set.status).toBe(201);
    expect(set.body).toMatchObject({ id: NODE, sshSettings: { host: "10.1.1.5", user: "root", password: "REDACTED" } });
    expect((await call("GET", `${A}/nodes/${NODE}/ssh`)).body).toEqual({ host: "10.1.1.5", user: "root", password: "REDACTED" });
    await call("POST", `${A}/nodes/${NODE}/ssh`, {
      host: "10.1.1.5",
      user: "root",
      privateKey: SECRETS.key,
      publicKey: "ssh-ed25519 AAAA",
    });
    expect((await call("GET", `${A}/nodes/${NODE}/ssh`)).body).toEqual({
      host: "10.1.1.5",
      user: "root",
      privateKey: "REDACTED",
      publicKey: "ssh-ed25519 AAAA",
    });
    expect((await call("GET", `${A}/nodes/${NODE}`)).body.sshSettings.privateKey).toBe("REDACTED");
  });

  it.each([[{ host: "h", user: "u" }], [{ user: "u", password: "p" }], [{ host: "h", user: "u", password: 3 }], ["x"]])(
    "refuses %j with RackHD's 400, changing nothing",
    async (body) => {
      expect(await call("POST", `${A}/nodes/${NODE}/ssh`, body)).toMatchObject({ status: 400, body: { message: "Invalid SSH body" } });
      expect((await call("GET", `${A}/nodes/${NODE}/ssh`)).status).toBe(204);
    },
  );

  it("answers 404 for an unknown node", async () => {
    expect((await call("POST", `${A}/nodes/0123456789abcdef01234567/ssh`, { host: "h", user: "u", password: "p" })).status).toBe(404);
    expect((await call("GET", `${A}/nodes/0123456789abcdef01234567/ssh`)).status).toBe(404);
  });
});

describe("OBM identify", () => {
  it('turns the light on and off through the noop service (RackHD: any truthy value, "false" too), and says what it was set to', async () => {
    expect((await call("GET", `${A}/nodes/${NODE}/obm/identify`)).body).toEqual({ value: false });
    await call("POST", `${A}/nodes/${NODE}/obm`, { service: "noop-obm-service", config: {} });
    expect((await call("POST", `${A}/nodes/${NODE}/obm/identify`, { value: "false" })).body).toMatchObject({
      value: true,
      service: "noop-obm-service",
    });
    expect((await call("GET", `${A}/nodes/${NODE}/obm/identify`)).body).toMatchObject({ value: true });
    expect((await call("POST", `${A}/nodes/${NODE}/obm/identify`)).body).toMatchObject({ value: false });
  });

  it("answers 422 for a node without an OBM service or one nothing here drives, 400 for IPMI on a node of no site", async () => {
    expect(await call("POST", `${A}/nodes/${NODE}/obm/identify`, { value: true })).toMatchObject({
      status: 422,
      body: { message: "No OBM service assigned to this node." },
    });
    await call("POST", `${A}/nodes/${NODE}/obm`, {
      service: "ipmi-obm-service",
      config: { host: "10.0.0.9", user: "admin", password: SECRETS.ssh },
    });
    const ipmi = await call("POST", `${A}/nodes/${NODE}/obm/identify`, { value: true });
    expect(ipmi.status).toBe(400);
    expect(ipmi.body.message).toMatch(/belongs to no site: a relay of its site drives its BMC/);
    await call("POST", `${A}/nodes/${NODE}/obm`, { service: "snmp-obm-service", config: { host: "10.0.0.9", community: "public" } });
    const snmp = await call("POST", `${A}/nodes/${NODE}/obm/identify`, { value: true });
    expect(snmp.status).toBe(422);
    expect((await call("POST", `${A}/nodes/0123456789abcdef01234567/obm/identify`, { value: true })).status).toBe(404);
  });
});
