import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { auditTrail } from "../../lib/audit/auditTrail";
import { reloadSettings } from "../../lib/config/settings";
import { api, freshContainer } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

/**
 * Issue 55: how the operators' API treats a provider's JWT beside Basic and API tokens, through the
 * real handler stacks. Sign-in with tokens the real provider signs is tests/e2e/oidc.e2e.test.ts's;
 * here, what needs no provider answering: a JWT where none is configured, and a provider that
 * cannot be reached or answers with another issuer's document.
 */
const A = "/api/1.1";
const PASSWORD = "0idc-Pa55-word";
// A JWT's shape; its signature is never checked here (no provider's keys are had).
const JWT = `${Buffer.from('{"alg":"RS256","kid":"k"}').toString("base64url")}.${Buffer.from('{"sub":"mallory"}').toString("base64url")}.c2ln`;
const bearer = { authorization: `Bearer ${JWT}` };

let closed: string;
let impostor: Server;
let impostorUrl: string;

beforeAll(async () => {
  // A port nothing listens on: the provider is down.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise((resolve) => probe.close(resolve));
  // A server whose discovery document names another issuer (a provider's address taken over, or a wrong setting).
  impostor = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ issuer: "https://someone-else.example.com", jwks_uri: "https://someone-else.example.com/jwks" }));
  });
  await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
  impostorUrl = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => impostor.close(resolve));
  for (const name of SET) delete process.env[name];
  reloadSettings();
});

const SET = ["PROVISIONING_AUTH", "AUTH_USERS", "OIDC_ISSUER", "OIDC_AUDIENCE", "OIDC_CONSOLE_CLIENT"];

function configure(env: Record<string, string | undefined>): void {
  for (const name of SET) delete process.env[name];
  Object.assign(process.env, { PROVISIONING_AUTH: "on", LOG_REQUESTS: "off", ...env });
  reloadSettings();
  freshContainer();
}

describe("a provider's JWT at the operators' API", () => {
  it("is a wrong token where no provider is configured (401), and Basic works as before", async () => {
    configure({ AUTH_USERS: `admin:${PASSWORD}` });
    expect(await api({ method: "GET", path: `${A}/nodes`, headers: bearer })).toMatchObject({ status: 401 });
    expect(await api({ method: "GET", path: `${A}/nodes`, headers: { authorization: basic("admin", PASSWORD) } })).toMatchObject({
      status: 200,
    });
  });

  it("is a 503 with Retry-After while the provider cannot be reached, and lets nobody in", async () => {
    configure({ OIDC_ISSUER: closed, OIDC_AUDIENCE: "urn:rackhd:api" });
    const answer = await api({ method: "GET", path: `${A}/nodes`, headers: bearer });
    expect(answer).toMatchObject({ status: 503, headers: expect.objectContaining({ "retry-after": "5" }) });
    expect(answer.body).toEqual({ message: "The identity provider cannot be reached now" });
    // Without credentials it is still the challenge, not the outage.
    expect(await api({ method: "GET", path: `${A}/nodes`, headers: {} })).toMatchObject({ status: 401 });
  });

  it("refuses a provider whose discovery document names another issuer (503), never taking its keys", async () => {
    configure({ OIDC_ISSUER: impostorUrl, OIDC_AUDIENCE: "urn:rackhd:api" });
    const answer = await api({ method: "GET", path: `${A}/nodes`, headers: bearer });
    expect(answer).toMatchObject({ status: 503, body: { message: "The identity provider cannot be used now" } });
  });

  it("lets in nobody but the provider's users when no Basic user is set", async () => {
    configure({ OIDC_ISSUER: closed, OIDC_AUDIENCE: "urn:rackhd:api" });
    expect(await api({ method: "GET", path: `${A}/nodes`, headers: { authorization: basic("admin", PASSWORD) } })).toMatchObject({
      status: 401,
    });
  });
});

describe("the console's sign-in routes", () => {
  it("offer no provider's sign-in where none is configured", async () => {
    configure({ AUTH_USERS: `admin:${PASSWORD}` });
    expect(await api({ method: "GET", path: "/console/session", headers: {} })).toMatchObject({
      status: 200,
      body: { user: null, provider: false },
    });
    for (const path of ["/console/signin", "/console/callback?code=x&state=y"]) {
      expect(await api({ method: "GET", path, headers: {} })).toMatchObject({
        status: 404,
        body: { message: "The console signs in with no identity provider here (OIDC_CONSOLE_CLIENT is unset)" },
      });
    }
  });

  it("refuse a callback no sign-in started here (400, recorded), and a provider that cannot be reached (503)", async () => {
    configure({ OIDC_ISSUER: closed, OIDC_AUDIENCE: "urn:rackhd:api", OIDC_CONSOLE_CLIENT: "rackhd-console" });
    expect(await api({ method: "GET", path: "/console/session", headers: {} })).toMatchObject({ body: { user: null, provider: true } });
    const forged = await api({ method: "GET", path: "/console/callback?code=stolen&state=guessed", headers: {} });
    expect(forged).toMatchObject({ status: 400, body: { message: expect.stringContaining("was not started here") } });
    const trail = await auditTrail().day(new Date().toISOString().slice(0, 10), { limit: 100 });
    expect(trail).toEqual(expect.arrayContaining([expect.objectContaining({ action: "consoleCallback", status: 400, verified: false })]));
    const carried = await api({ method: "GET", path: "/console/callback?code=c&state=s", headers: { cookie: "rhd_signin=s.verifier" } });
    expect(carried).toMatchObject({ status: 503, headers: expect.objectContaining({ "retry-after": "5" }) });
    expect(await api({ method: "GET", path: "/console/signin", headers: {} })).toMatchObject({ status: 503 });
  });

  it("end the session by clearing its cookie, under the stage's path", async () => {
    configure({});
    const answer = await api({ method: "POST", path: "/console/signout", headers: {} });
    expect(answer.status).toBe(204);
    expect(answer.cookies).toEqual(["rhd_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure"]);
  });

  it("take the session cookie only where no credentials are sent, and only with a provider", async () => {
    configure({ AUTH_USERS: `admin:${PASSWORD}` });
    // No provider: a session cookie is no credential (401), Basic beside it works.
    expect(await api({ method: "GET", path: `${A}/nodes`, headers: { cookie: `rhd_session=${JWT}` } })).toMatchObject({ status: 401 });
    configure({ AUTH_USERS: `admin:${PASSWORD}`, OIDC_ISSUER: closed, OIDC_AUDIENCE: "urn:rackhd:api" });
    const both = { cookie: `other=1; rhd_session=${JWT}`, authorization: basic("admin", PASSWORD) };
    expect(await api({ method: "GET", path: `${A}/nodes`, headers: both })).toMatchObject({ status: 200 });
    // The cookie alone holding the provider's token is no session of the service's: the provider (down here) is not even asked.
    expect(await api({ method: "GET", path: `${A}/nodes`, headers: { cookie: `rhd_session=${JWT}` } })).toMatchObject({ status: 401 });
  });
});

describe("the OpenAPI documents' ways in", () => {
  type Doc = {
    paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
    components: { securitySchemes: Record<string, { type: string; openIdConnectUrl?: string }> };
  };
  const ways = (doc: Doc, path: string, method: string) => (doc.paths[path][method].security ?? []).flatMap((way) => Object.keys(way));

  it("declare Basic, API tokens and RackHD's /login token on every operator's route, and the provider's JWTs when OIDC_ISSUER names one", async () => {
    configure({ AUTH_USERS: `admin:${PASSWORD}` });
    const plain = (await api({ method: "GET", path: `${A}/openapi.json`, headers: {} })).body as Doc;
    expect(ways(plain, "/nodes", "get")).toEqual(["basicAuth", "apiToken", "rackhdJwt", "rackhdQueryToken"]);
    expect(plain.components.securitySchemes).not.toHaveProperty("oidc");
    configure({ AUTH_USERS: `admin:${PASSWORD}`, OIDC_ISSUER: "https://idp.example.com/realms/ops/", OIDC_AUDIENCE: "urn:rackhd:api" });
    const withProvider = (await api({ method: "GET", path: `${A}/openapi.json`, headers: {} })).body as Doc;
    expect(withProvider.components.securitySchemes.oidc).toEqual(
      expect.objectContaining({
        type: "openIdConnect",
        openIdConnectUrl: "https://idp.example.com/realms/ops/.well-known/openid-configuration",
      }),
    );
    for (const [path, operations] of Object.entries(withProvider.paths))
      for (const [method, op] of Object.entries(operations)) {
        const named = ways(withProvider, path, method);
        if (!Array.isArray(op) && named.includes("basicAuth"))
          expect({ path, method, named }).toEqual({ path, method, named: expect.arrayContaining(["oidc"]) });
        if (named.includes("relayToken")) expect(named).not.toContain("oidc");
      }
    const tasks = (await api({ method: "GET", path: "/todo/api/v1.0/openapi.json", headers: {} })).body as Doc;
    expect(ways(tasks, "/tasks", "post")).toEqual(["basicAuth", "apiToken", "rackhdJwt", "rackhdQueryToken", "oidc"]);
  });
});
