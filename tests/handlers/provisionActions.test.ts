import { nodeIdForMac } from "../../lib/provisioning/ids";
import { api, freshContainer } from "../support/api";

/** POST and GET /nodes/{identifier}/actions through their handlers, with API Gateway v2 events (issue 53). */
const A = "/api/1.1";
const MAC = "52:54:00:53:00:01";

const call = (method: string, path: string, body?: unknown) =>
  api({
    method,
    path,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });

beforeEach(() => {
  delete process.env.RELEASE_ERASE;
  freshContainer();
});

async function readyNode(): Promise<string> {
  const created = await call("POST", `${A}/nodes`, {
    name: "m1",
    identifiers: [MAC],
    obmSettings: [{ service: "noop-obm-service", config: {} }],
  });
  expect(created.body).toMatchObject({ provisionState: "discovered" });
  const id = (created.body as { id: string }).id;
  // Provide asks for a catalog, which discovery stores: the memory store is reached through the container.
  const { provisioningStores } = await import("../../lib/store/compositionRoot");
  await (await provisioningStores()).catalogs.add([
    { id: "c1", node: id, source: "dmi", data: {}, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() },
  ]);
  expect((await call("POST", `${A}/nodes/${id}/actions`, { action: "provide" })).status).toBe(202);
  return id;
}

describe("POST /nodes/{identifier}/actions", () => {
  it("answers 202 with the node in its new state and the action's workflow; the node's answer and list filter carry the state", async () => {
    const id = await readyNode();
    const allocated = await call("POST", `${A}/nodes/${MAC}/actions`, { action: "allocate", options: { owner: "team-a" } });
    expect(allocated.status).toBe(202);
    expect(allocated.body).toMatchObject({
      node: { id, provisionState: "allocated", provisioning: { owner: "team-a", action: "allocate" } },
      workflow: { injectableName: "Graph.Lifecycle.Allocate", _status: "succeeded", lifecycle: { action: "allocate" } },
    });
    expect((await call("GET", `${A}/nodes/${id}`)).body).toMatchObject({ provisionState: "allocated" });
    const listed = await call("GET", `${A}/nodes?provisionState=allocated`);
    expect((listed.body as { id: string }[]).map((node) => node.id)).toEqual([id]);
    expect(await call("GET", `${A}/nodes?provisionState=ready`)).toMatchObject({ body: [] });
  });

  it("is a 409 naming both states for an action the state does not allow, a 400 for a body that is not an action, a 404 for no node", async () => {
    const id = await readyNode();
    const refused = await call("POST", `${A}/nodes/${id}/actions`, { action: "unrescue" });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ message: expect.stringMatching(/^Action unrescue is not allowed while the node is ready/) });
    for (const body of [{}, { action: "fly" }, { action: "allocate", options: "x" }, { action: "allocate", extra: 1 }, "[1]"]) {
      const answer = await call("POST", `${A}/nodes/${id}/actions`, body);
      expect(answer.status).toBe(400);
    }
    expect((await call("POST", `${A}/nodes/${id}/actions`, { action: "allocate", options: { owner: "" } })).body).toMatchObject({
      message: "options.owner must be a non-empty string of at most 200 characters",
    });
    expect((await call("POST", `${A}/nodes/aaaaaaaaaaaaaaaaaaaaaaaa/actions`, { action: "provide" })).status).toBe(404);
    expect((await call("GET", `${A}/nodes/${id}`)).body).toMatchObject({ provisionState: "ready" });
  });

  it("keeps a PATCH from moving the state: only actions do", async () => {
    const id = await readyNode();
    const patched = await call("PATCH", `${A}/nodes/${id}`, { provisionState: "deployed", name: "renamed" });
    expect(patched.body).toMatchObject({ name: "renamed", provisionState: "ready" });
  });
});

describe("GET /nodes/{identifier}/actions", () => {
  it("lists every action with whether it may run now", async () => {
    const created = await call("POST", `${A}/nodes`, { name: "d", identifiers: ["52:54:00:53:00:02"] });
    const id = (created.body as { id: string }).id;
    const list = await call("GET", `${A}/nodes/${id}/actions`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ node: id, provisionState: "discovered" });
    const allowed = (list.body as { actions: { action: string; allowed: boolean }[] }).actions.filter((entry) => entry.allowed);
    expect(allowed.map((entry) => entry.action)).toEqual(["provide", "retire"]);
    expect((await call("GET", `${A}/nodes/${nodeIdForMac("00:00:00:00:00:00")}/actions`)).status).toBe(404);
  });
});

describe("an allocation's owner, with roles", () => {
  const PASSWORD = "Owner-Pa55-word";
  const as = (user: string, method: string, path: string, body?: unknown) =>
    api({
      method,
      path,
      headers: {
        authorization: `Basic ${Buffer.from(`${user}:${PASSWORD}`).toString("base64")}`,
        ...(body !== undefined && { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  afterEach(() => {
    for (const name of ["PROVISIONING_AUTH", "AUTH_USERS", "AUTH_ROLES"]) delete process.env[name];
    require("../../lib/config/settings").reloadSettings();
  });

  it("is the operator who allocates; another operator may not release or rescue it (403), an administrator may", async () => {
    const id = await readyNode();
    Object.assign(process.env, {
      PROVISIONING_AUTH: "on",
      AUTH_USERS: ["ana", "oleg", "root"].map((user) => `${user}:${PASSWORD}`).join(","),
      AUTH_ROLES: "ana=operator,oleg=operator,root=admin",
    });
    require("../../lib/config/settings").reloadSettings();
    const allocated = await as("ana", "POST", `${A}/nodes/${id}/actions`, { action: "allocate", options: { purpose: "CI" } });
    expect(allocated).toMatchObject({ status: 202, body: { node: { provisioning: { owner: "ana" } } } });
    const taken = await as("oleg", "POST", `${A}/nodes/${id}/actions`, { action: "deallocate" });
    expect(taken).toMatchObject({ status: 403, body: { message: expect.stringContaining("is held by ana") } });
    expect((await as("oleg", "POST", `${A}/nodes/${id}/actions`, { action: "allocate", options: { owner: "oleg" } })).status).toBe(409);
    expect((await as("root", "POST", `${A}/nodes/${id}/actions`, { action: "deallocate" })).status).toBe(202);
  });
});
