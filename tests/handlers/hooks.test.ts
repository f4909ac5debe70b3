import { createServer, type Server } from "node:http";
import { Webhook } from "standardwebhooks";
import { api, freshContainer } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

/**
 * Web hooks and events through the handlers (real API Gateway v2 events), northbound auth on:
 * RackHD 2.0's answers, the secret answered once, the test delivery reaching a real receiver,
 * every refusal, and a deployment without a signing key.
 */
const H = "/api/2.0/hooks";
const A = "/api/1.1";
const OPERATOR = { authorization: basic("ops", "Op3rator-Pa55-Hk") };

const operator = (method: string, path: string, body?: unknown, headers: Record<string, string> = OPERATOR) =>
  api({
    method,
    path,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

let receiver: Server;
let receiverUrl = "";
const received: { headers: Record<string, string>; body: string }[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])), body });
      response.writeHead(request.url === "/gone" ? 410 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

beforeEach(() => {
  Object.assign(process.env, {
    DEMO_NODES: "off",
    PROVISIONING_AUTH: "on",
    AUTH_USERS: "ops:Op3rator-Pa55-Hk",
    HOOK_SIGNING_KEY: "handler-test-hook-signing-key-0123456789",
    // The receivers are on this machine, over http: the local stage's targets (tests/unit/provisioning/hooks/hookTarget.test.ts has the refusals).
    HOOK_PRIVATE_TARGETS: "on",
    HOOK_HTTP: "on",
  });
  freshContainer();
});

describe("hooks routes (RackHD 2.0, issue 27)", () => {
  it("creates a hook (201, its secret once), lists and reads it without the secret, patches it, deletes it (204)", async () => {
    const made = await operator("POST", H, { url: `${receiverUrl}/in`, name: "ops", filters: [{ type: "^graph$" }] });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      url: `${receiverUrl}/in`,
      name: "ops",
      filters: [{ type: "^graph$" }],
      events: [],
      secretRotating: false,
    });
    expect(made.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await operator("GET", H);
    expect(listed.body).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain("whsec_");
    expect((await operator("GET", `${H}/${made.body.id}`)).body).not.toHaveProperty("secret");
    const patched = await operator("PATCH", `${H}/${made.body.id}`, { events: ["graph.finished"] });
    expect(patched.status).toBe(200);
    expect(patched.body.events).toEqual(["graph.finished"]);
    // The service's other versions name the same hooks.
    expect((await operator("GET", `${A}/hooks/${made.body.id}`)).status).toBe(200);
    expect((await operator("DELETE", `${H}/${made.body.id}`)).status).toBe(204);
    expect((await operator("GET", `${H}/${made.body.id}`)).status).toBe(404);
  });

  it("sends a signed test delivery to a real receiver, and lists it with the hook's deliveries", async () => {
    const made = (await operator("POST", H, { url: `${receiverUrl}/in` })).body;
    const tested = await operator("POST", `${H}/${made.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ hookId: made.id, event: "hook.test", ok: true, status: 200, attempt: 1 });
    const sent = received.at(-1)!;
    expect(new Webhook(made.secret).verify(sent.body, sent.headers)).toMatchObject({ type: "hook", action: "test" });
    const gone = (await operator("POST", H, { url: `${receiverUrl}/gone` })).body;
    expect((await operator("POST", `${H}/${gone.id}/test`)).body).toMatchObject({ ok: false, status: 410 });
    const deliveries = await operator("GET", `${H}/${made.id}/deliveries`);
    expect(deliveries.body.map((delivery: { event: string }) => delivery.event)).toEqual(["hook.test"]);
  });

  it("refuses what RackHD refused, and more: 409, 400, 404, 401", async () => {
    expect((await operator("POST", H, { url: `${receiverUrl}/dup` })).status).toBe(201);
    const duplicate = await operator("POST", H, { url: `${receiverUrl}/dup` });
    expect(duplicate).toMatchObject({ status: 409, body: { message: "duplicate hook found" } });
    for (const body of [
      {},
      { url: "mailto:a@b" },
      { url: `${receiverUrl}/x`, filters: [{ type: "[" }] },
      { url: `${receiverUrl}/x`, events: ["a b"] },
      { url: `${receiverUrl}/x`, secret: "mine" },
    ]) {
      expect([JSON.stringify(body), (await operator("POST", H, body)).status]).toEqual([JSON.stringify(body), 400]);
    }
    expect((await operator("PATCH", `${H}/65f0c0ffee0123456789abcd`, { name: "x" })).status).toBe(404);
    expect((await operator("POST", `${H}/65f0c0ffee0123456789abcd/secret`)).status).toBe(404);
    expect((await operator("GET", H, undefined, {})).status).toBe(401);
    expect((await operator("GET", "/api/3.0/hooks")).status).toBe(404);
    expect((await operator("GET", H)).body).toHaveLength(1);
  });

  it("refuses, as a deployed stage does by default, a hook on the metadata services, a private address or plain http (issue 35 §7)", async () => {
    for (const name of ["HOOK_PRIVATE_TARGETS", "HOOK_HTTP"]) delete process.env[name];
    freshContainer();
    for (const url of ["https://169.254.169.254/latest/meta-data/", "https://[fd00:ec2::254]/", "https://0x7f000001/", receiverUrl]) {
      const refused = await operator("POST", H, { url });
      expect([url, refused.status]).toEqual([url, 400]);
      expect(refused.body.message).toMatch(/^url must (name a public address|be https)/);
    }
    expect((await operator("GET", H)).body).toEqual([]);
    expect((await operator("POST", H, { url: "https://hooks.example.com/in" })).status).toBe(201);
  });

  it("answers 503 saying why when the deployment has no signing key, and changes nothing", async () => {
    delete process.env.HOOK_SIGNING_KEY;
    freshContainer();
    const refused = await operator("POST", H, { url: `${receiverUrl}/in` });
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBeDefined();
    expect(refused.body.message).toMatch(/HOOK_SIGNING_KEY/);
    expect((await operator("GET", H)).body).toEqual([]);
  });

  it("answers a node's events and a workflow's, in order, after a sequence", async () => {
    const node = (await operator("POST", `${A}/nodes`, { name: "n1" })).body;
    const workflow = (await operator("POST", `${A}/nodes/${node.id}/workflows`, { name: "Graph.noop-example" })).body;
    const events = await operator("GET", `${A}/nodes/${node.id}/events`);
    expect(events.status).toBe(200);
    expect(
      events.body.map((event: { sequence: number; type: string; action: string }) => `${event.sequence} ${event.type}.${event.action}`),
    ).toEqual(expect.arrayContaining(["1 node.added", "2 graph.started"]));
    const mine = await operator("GET", `${A}/workflows/${workflow.instanceId}/events?limit=1`);
    expect(mine.body.map((event: { action: string }) => event.action)).toEqual(["started"]);
    expect((await operator("GET", `${A}/nodes/${node.id}/events?after=1&limit=1`)).body[0].sequence).toBe(2);
    expect((await operator("GET", `${A}/nodes/${node.id}/events?limit=0`)).status).toBe(400);
    expect((await operator("GET", `${A}/nodes/${node.id}/events?after=x`)).status).toBe(400);
    expect((await operator("GET", `${A}/nodes/52:54:00:00:00:99/events`)).status).toBe(404);
    expect((await operator("GET", `${A}/workflows/nope/events`)).status).toBe(404);
  });
});
