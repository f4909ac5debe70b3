import { api, freshContainer } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

const T = "/todo/api/v1.0/tasks";
const A = "/api/1.1";
const JSON_TYPE = { "content-type": "application/json" };

const send = (method: string, path: string, body: unknown, key?: string, headers: Record<string, string> = {}) =>
  api({ method, path, headers: { ...JSON_TYPE, ...(key && { "idempotency-key": key }), ...headers }, body: JSON.stringify(body) });
const titles = async () => (await api({ method: "GET", path: T })).body.tasks.map((task: { title: string }) => task.title);

beforeEach(() => {
  process.env.LOG_REQUESTS = "off";
  process.env.DEMO_NODES = "off";
  freshContainer();
});
afterAll(() => {
  delete process.env.DEMO_NODES;
});

describe("Idempotency-Key", () => {
  it("answers a retried create with the first answer and creates once", async () => {
    const first = await send("POST", T, { title: "Buy milk" }, "key-1");
    const retry = await send("POST", T, { title: "Buy milk" }, "key-1");

    expect(first.status).toBe(201);
    expect(retry).toMatchObject({ status: 201, raw: first.raw });
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(await titles()).toEqual(["Buy milk"]);
  });

  it("answers 422 to the same key with another body, and changes nothing", async () => {
    await send("POST", T, { title: "Buy milk" }, "key-2");
    const other = await send("POST", T, { title: "Buy bread" }, "key-2");

    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: "Unprocessable entity", message: expect.stringMatching(/another request body/) });
    expect(await titles()).toEqual(["Buy milk"]);
  });

  it("keeps keys apart per path and per caller, and runs requests without a key as before", async () => {
    await send("POST", T, { title: "a" }, "shared");
    await send("POST", `${A}/nodes`, { name: "n" }, "shared");
    await send("POST", T, { title: "a" });
    await send("POST", T, { title: "a" });
    expect(await titles()).toEqual(["a", "a", "a"]);
  });

  it("scopes a key to the authenticated user, never to the credentials themselves (issue 35 §12)", async () => {
    process.env.TASKS_AUTH = "all";
    process.env.AUTH_USERS = "miguel:python,ann:Other-Pa55";
    try {
      const { createHash } = await import("node:crypto");
      const { idempotencyStore } = await import("../../lib/store/compositionRoot");
      const asMiguel = { authorization: basic("miguel", "python") };
      const first = await send("POST", T, { title: "mine" }, "k", asMiguel);
      const other = await send("POST", T, { title: "mine" }, "k", { authorization: basic("ann", "Other-Pa55") });
      expect([first.status, other.status]).toEqual([201, 201]);
      expect(other.headers["idempotent-replayed"]).toBeUndefined();
      expect((await send("POST", T, { title: "mine" }, "k", asMiguel)).headers["idempotent-replayed"]).toBe("true");
      // The key kept (and logged at debug level) is the user's name with the route and the key, hashed: no credential in it.
      const hash = (text: string) => createHash("sha256").update(text).digest("base64url");
      const kept = await idempotencyStore().claim(hash(`POST ${T}\nmiguel\nk`), hash('{"title":"mine"}'), new Date());
      expect(kept.kind).toBe("replay");
    } finally {
      delete process.env.TASKS_AUTH;
      delete process.env.AUTH_USERS;
    }
  });

  it("forgets a key whose request was refused (4xx), so a corrected retry runs", async () => {
    expect((await send("POST", T, { description: "no title" }, "key-3")).status).toBe(400);
    expect((await send("POST", T, { title: "fixed" }, "key-3")).status).toBe(201);
    expect(await titles()).toEqual(["fixed"]);
  });

  it("refuses a malformed key with 400", async () => {
    for (const key of ["has space", "x".repeat(256), "é"]) {
      const answer = await send("POST", T, { title: "x" }, key);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/Idempotency-Key must be/);
    }
    expect(await titles()).toEqual([]);
  });

  it("answers 409 with Retry-After while the same request is still being carried out", async () => {
    const [a, b] = await Promise.all([send("POST", T, { title: "once" }, "key-4"), send("POST", T, { title: "once" }, "key-4")]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([201, 409]);
    const busy = a.status === 409 ? a : b;
    expect(Number(busy.headers["retry-after"])).toBeGreaterThan(0);
    expect(await titles()).toEqual(["once"]);
  });

  it("covers the provisioning creates and updates: nodes, PATCH, OBM settings, workflows", async () => {
    const node = { name: "rack-1", identifiers: ["52:54:00:aa:bb:01"] };
    const created = await send("POST", `${A}/nodes`, node, "n-1");
    expect((await send("POST", `${A}/nodes`, node, "n-1")).raw).toBe(created.raw);
    const id = created.body.id as string;

    const patched = await send("PATCH", `${A}/nodes/${id}`, { status: "ready" }, "n-2");
    expect(await send("PATCH", `${A}/nodes/${id}`, { status: "ready" }, "n-2")).toMatchObject({ status: 200, raw: patched.raw });

    const obm = { service: "noop-obm-service", config: {} };
    const set = await send("POST", `${A}/nodes/${id}/obm`, obm, "n-3");
    expect((await send("POST", `${A}/nodes/${id}/obm`, obm, "n-3")).raw).toBe(set.raw);

    const graph = { name: "Graph.noop-example" };
    const started = await send("POST", `${A}/nodes/${id}/workflows`, graph, "n-4");
    const again = await send("POST", `${A}/nodes/${id}/workflows`, graph, "n-4");
    expect(again).toMatchObject({ status: started.status, raw: started.raw });
    expect((await api({ method: "GET", path: `${A}/nodes/${id}/workflows` })).body).toHaveLength(1);
    expect((await api({ method: "GET", path: `${A}/nodes` })).body).toHaveLength(1);
  });
});
