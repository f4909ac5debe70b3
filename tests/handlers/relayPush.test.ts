import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { handler as connect } from "../../handlers/provisioning/relays/connect";
import { handler as disconnect } from "../../handlers/provisioning/relays/disconnect";
import { handler as ping } from "../../handlers/provisioning/relays/ping";
import { UnavailableError } from "../../lib/errors";
import { header } from "../../lib/http/event";
import { runSocket } from "../../lib/lambda/socketFunction";
import { JOBS_MESSAGE, PONG_MESSAGE, PUSH, RECONNECT_MESSAGE } from "../../lib/wire/relay";
import { api, freshContainer } from "../support/api";
import { basic, webSocketEvent } from "../support/apiGatewayEvent";

/**
 * The relays' push (issue 56) through the handlers: the WebSocket API's functions with API Gateway's
 * events, and the push a job makes. API Gateway's `@connections` API is a stand-in here (an HTTP
 * server that answers as API Gateway does: 200 to a connection it holds, 410 to one gone); the e2e
 * tier runs serverless offline's real one.
 */
const A = "/api/1.1";
const OPERATOR = { authorization: basic("ops", "Op3rator-Pa55-Rl") };

const as = (headers: Record<string, string>) => async (method: string, path: string, body?: unknown) =>
  api({
    method,
    path,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const operator = as(OPERATOR);

/** API Gateway's `@connections` as it answers: the connections it holds, the messages posted to each. */
let connections: Server;
let held: Set<string>;
let posted: [string, string][];
let closed: string[];
let pushUrl: string;

beforeAll(async () => {
  connections = createServer((request, response) => {
    const id = decodeURIComponent(/^\/@connections\/([^/]+)$/.exec(request.url ?? "")?.[1] ?? "");
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      if (request.method === "DELETE" && held.has(id)) {
        held.delete(id);
        closed.push(id);
        response.writeHead(204).end();
        return;
      }
      if (request.method !== "POST" || !held.has(id)) {
        response.writeHead(410, { "content-type": "application/json" }).end('{"message":"Gone"}');
        return;
      }
      posted.push([id, body]);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => connections.listen(0, "127.0.0.1", resolve));
  pushUrl = `ws://127.0.0.1:${(connections.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => connections.close(resolve)));

beforeEach(() => {
  for (const name of ["API_SERVER", "BOOT_VIA_RELAY"]) delete process.env[name];
  Object.assign(process.env, {
    DEMO_NODES: "off",
    PROVISIONING_AUTH: "on",
    AUTH_USERS: "ops:Op3rator-Pa55-Rl",
    LOG_REQUESTS: "off",
    RELAY_PUSH_URL: pushUrl,
  });
  held = new Set();
  posted = [];
  closed = [];
  freshContainer();
});
afterEach(() => {
  delete process.env.RELAY_PUSH_URL;
});

/** Two sites, a relay credential of each, an IPMI node in the first. */
async function twoSites() {
  const site = (await operator("POST", `${A}/sites`, { name: "lab" })).body;
  const other = (await operator("POST", `${A}/sites`, { name: "elsewhere" })).body;
  const credential = (await operator("POST", `${A}/sites/${site.id}/relays`, { name: "relay-a" })).body;
  const foreign = (await operator("POST", `${A}/sites/${other.id}/relays`, { name: "relay-b" })).body;
  const node = (await operator("POST", `${A}/nodes`, { name: "n1", identifiers: ["52:54:00:56:00:01"] })).body;
  await operator("POST", `${A}/nodes/${node.id}/obm`, {
    service: "ipmi-obm-service",
    config: { host: "10.0.0.9", user: "admin", password: "x" },
  });
  await operator("PUT", `${A}/nodes/${node.id}/site`, { site: site.id });
  return { site, other, credential, foreign, node };
}

const connectWith = (connectionId: string, token: string | undefined) =>
  connect(
    webSocketEvent("$connect", connectionId, {
      headers: { ...(token && { Authorization: `Bearer ${token}` }), [PUSH.versionHeader]: "0.4.0" },
    }),
  );

describe("the relays' push connections (issue 56)", () => {
  it("takes a relay's connection with its credential only, and shows the relay online by it", async () => {
    const { site, credential } = await twoSites();
    expect(await connectWith("conn-bad", `${credential.id}.wrong`)).toEqual({ statusCode: 401 });
    expect(await connectWith("conn-none", undefined)).toEqual({ statusCode: 401 });
    expect(await connectWith("conn-a", credential.token)).toEqual({ statusCode: 200 });
    const [listed] = (await operator("GET", `${A}/sites/${site.id}/relays`)).body;
    expect(listed).toMatchObject({ id: credential.id, online: true, relayVersion: "0.4.0", pushedAt: expect.any(String) });
  });

  it("counts refused connects as failed sign-ins (held with 429 past the limit, its own credential then too) and records each in the audit trail", async () => {
    const { credential } = await twoSites();
    for (let attempt = 0; attempt < 10; attempt += 1)
      expect(await connectWith(`conn-guess-${attempt}`, `${credential.id}.${String(attempt).padStart(43, "x")}`)).toEqual({
        statusCode: 401,
      });
    // The same credential from the same address is held for the window, even with its right secret.
    expect(await connectWith("conn-held", credential.token)).toEqual({ statusCode: 429 });
    const trail = (await operator("GET", `${A}/audit?limit=50`)).body as {
      action: string;
      method: string;
      status: number;
      actor: string;
      verified: boolean;
      sourceIp?: string;
    }[];
    const refused = trail.filter((record) => record.action === "relayConnect");
    expect(refused.filter((record) => record.status === 401)).toHaveLength(10);
    expect(refused).toContainEqual(
      expect.objectContaining({ status: 429, method: "CONNECT", actor: `relay:${credential.id}`, verified: false, sourceIp: "192.0.2.10" }),
    );
  });

  it("closes a revoked credential's open connections at once, and no other relay's", async () => {
    const { site, credential } = await twoSites();
    const other = (await operator("POST", `${A}/sites/${site.id}/relays`, { name: "relay-a2" })).body;
    expect(await connectWith("conn-a", credential.token)).toEqual({ statusCode: 200 });
    expect(await connectWith("conn-b", other.token)).toEqual({ statusCode: 200 });
    held.add("conn-a");
    held.add("conn-b");
    expect((await operator("DELETE", `${A}/sites/${site.id}/relays/${credential.id}`)).status).toBe(200);
    expect(closed).toEqual(["conn-a"]);
    // Forgotten: its next ping is told to reconnect (which its revoked credential cannot); the other relay's is kept.
    expect(await ping(webSocketEvent("ping", "conn-a", { body: PUSH.ping }))).toEqual({ statusCode: 200, body: RECONNECT_MESSAGE });
    expect(await ping(webSocketEvent("ping", "conn-b", { body: PUSH.ping }))).toEqual({ statusCode: 200, body: PONG_MESSAGE });
  });

  it("tells the job's site's connected relays when a job is made, no other site's, and forgets a connection gone", async () => {
    const { credential, foreign, node } = await twoSites();
    await connectWith("conn-a", credential.token);
    await connectWith("conn-gone", credential.token);
    await connectWith("conn-b", foreign.token);
    held = new Set(["conn-a", "conn-b"]);
    expect((await operator("POST", `${A}/nodes/${node.id}/power`, { action: "on" })).status).toBe(202);
    expect(posted).toEqual([["conn-a", JOBS_MESSAGE]]);
    // The gone one was forgotten: the next job posts to the one held only.
    held.add("conn-gone");
    posted = [];
    expect((await operator("POST", `${A}/nodes/${node.id}/power`, { action: "off" })).status).toBe(202);
    expect(posted).toEqual([["conn-a", JOBS_MESSAGE]]);
  });

  it("makes the job all the same when API Gateway cannot be reached", async () => {
    process.env.RELAY_PUSH_URL = "ws://127.0.0.1:9";
    freshContainer();
    const { credential, node } = await twoSites();
    await connectWith("conn-a", credential.token);
    const made = await operator("POST", `${A}/nodes/${node.id}/power`, { action: "on" });
    expect(made).toMatchObject({ status: 202, body: { state: "queued" } });
  });

  it("names the WebSocket API in a lease's answer, and nothing when there is none", async () => {
    const { credential } = await twoSites();
    const relay = as({ authorization: `Bearer ${credential.token}` });
    expect((await relay("POST", `${A}/relay/jobs/lease`, {})).headers[PUSH.urlHeader]).toBe(pushUrl);
    delete process.env.RELAY_PUSH_URL;
    freshContainer();
    expect((await relay("POST", `${A}/relay/jobs/lease`, {})).headers[PUSH.urlHeader]).toBeUndefined();
  });

  it("tells a relay whose lease found nothing when a job another relay holds comes back", async () => {
    const { site, node } = await twoSites();
    const a = as({ authorization: `Bearer ${(await operator("POST", `${A}/sites/${site.id}/relays`, { name: "a2" })).body.token}` });
    const b = as({ authorization: `Bearer ${(await operator("POST", `${A}/sites/${site.id}/relays`, { name: "b2" })).body.token}` });
    expect((await b("POST", `${A}/relay/jobs/lease`, {})).headers[PUSH.leaseEndsHeader]).toBeUndefined();
    await operator("POST", `${A}/nodes/${node.id}/power`, { action: "on" });
    const taken = await a("POST", `${A}/relay/jobs/lease`, {});
    expect(taken.body).toHaveLength(1);
    expect(taken.headers[PUSH.leaseEndsHeader]).toBeUndefined();
    const ends = Number((await b("POST", `${A}/relay/jobs/lease`, {})).headers[PUSH.leaseEndsHeader]);
    expect(ends).toBeGreaterThan(50_000);
    expect(ends).toBeLessThanOrEqual(60_000);
  });

  it("answers a ping with pong, a ping on a connection it does not know with reconnect, and forgets a closed one", async () => {
    const { site, credential, node } = await twoSites();
    await connectWith("conn-a", credential.token);
    expect(await ping(webSocketEvent("ping", "conn-a", { body: PUSH.ping }))).toEqual({ statusCode: 200, body: PONG_MESSAGE });
    expect(await ping(webSocketEvent("ping", "conn-x", { body: PUSH.ping }))).toEqual({ statusCode: 200, body: RECONNECT_MESSAGE });
    expect(await disconnect(webSocketEvent("$disconnect", "conn-a"))).toEqual({ statusCode: 200 });
    const [listed] = (await operator("GET", `${A}/sites/${site.id}/relays`)).body;
    expect(listed.pushedAt).toBeUndefined();
    held = new Set(["conn-a"]);
    await operator("POST", `${A}/nodes/${node.id}/power`, { action: "on" });
    expect(posted).toEqual([]);
  });
});

describe("the WebSocket API's functions, their failures", () => {
  it("answers a store that cannot be reached with 503 (a connection refused, tried again), and throws what is no domain error", async () => {
    const entry = { function: "relayPing", data: {} };
    expect(await runSocket(entry, undefined, () => Promise.reject(new UnavailableError("DynamoDB is not answering", 1)))).toEqual({
      statusCode: 503,
    });
    await expect(runSocket(entry, undefined, () => Promise.reject(new TypeError("a bug")))).rejects.toThrow("a bug");
  });

  it("reads a connection request's header whatever its case, and none that is not there", async () => {
    const event = webSocketEvent("$connect", "c", { headers: { AUTHORIZATION: "Bearer x" } });
    expect(header(event, "authorization")).toBe("Bearer x");
    expect(header(event, "relay-version")).toBeUndefined();
    expect(header({}, "authorization")).toBeUndefined();
  });
});
