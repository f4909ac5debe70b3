import { apiTokenStore } from "../../lib/auth/apiTokens";
import { reloadSettings } from "../../lib/config/settings";
import { provisioningStores } from "../../lib/store/compositionRoot";
import { api, freshContainer } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

/**
 * Issue 55: API tokens for automation. Made by a user for themselves within their own grant, shown
 * once and kept as a hash, used as `Authorization: Bearer`, listed with their last use, revoked at
 * once; an expired or wrong one is a 401, and guessing is limited as a password is.
 */
const A = "/api/1.1";
const PASSWORD = "T0kens-Pa55-word";
const as = (user: string) => ({ authorization: basic(user, PASSWORD) });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const json = { "content-type": "application/json" };

beforeEach(() => {
  Object.assign(process.env, {
    DEMO_NODES: "off",
    PROVISIONING_AUTH: "on",
    TASKS_AUTH: "all",
    LOG_REQUESTS: "off",
    AUTH_USERS: ["root", "ops", "watcher"].map((user) => `${user}:${PASSWORD}`).join(","),
    AUTH_ROLES: "ops=operator@site-a,watcher=viewer",
  });
  reloadSettings();
  freshContainer();
});

afterAll(() => {
  for (const name of ["AUTH_ROLES", "TASKS_AUTH", "AUTH_USERS", "PROVISIONING_AUTH"]) delete process.env[name];
  reloadSettings();
});

const make = (user: Record<string, string>, body: unknown) =>
  api({ method: "POST", path: `${A}/tokens`, headers: { ...user, ...json }, body: JSON.stringify(body) });

async function nodeIn(site: string, mac: string): Promise<string> {
  const stores = await provisioningStores();
  const stamp = new Date().toISOString();
  if (!(await stores.sites.get(site))) await stores.sites.create({ id: site, name: site, createdAt: stamp, updatedAt: stamp });
  const node = await api({
    method: "POST",
    path: `${A}/nodes`,
    headers: { ...as("root"), ...json },
    body: JSON.stringify({ name: mac, identifiers: [mac] }),
  });
  await api({
    method: "PUT",
    path: `${A}/nodes/${node.body.id}/site`,
    headers: { ...as("root"), ...json },
    body: JSON.stringify({ site }),
  });
  return node.body.id as string;
}

describe("API tokens", () => {
  it("are made within their maker's grant, shown once, kept as a hash, and act with their own grant", async () => {
    const nodeA = await nodeIn("site-a", "52:54:00:aa:00:01");
    await nodeIn("site-b", "52:54:00:bb:00:01");
    const made = await make(as("ops"), { name: "ci", role: "viewer@site-a", expiresInDays: 30 });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "ci", owner: "ops", grant: "viewer@site-a", token: expect.stringMatching(/^rhdt_/) });
    const kept = await apiTokenStore().get(made.body.id);
    expect(JSON.stringify(kept)).not.toContain(made.body.token.slice(-32));
    const nodes = await api({ method: "GET", path: `${A}/nodes`, headers: bearer(made.body.token) });
    expect(nodes.body.map((node: { id: string }) => node.id)).toEqual([nodeA]);
    // Its own grant, not its owner's: a viewer token cannot power a machine its owner may.
    const power = await api({
      method: "POST",
      path: `${A}/nodes/${nodeA}/power`,
      headers: { ...bearer(made.body.token), ...json },
      body: '{"action":"on"}',
    });
    expect(power.status).toBe(403);
    const listed = await api({ method: "GET", path: `${A}/tokens`, headers: as("ops") });
    expect(listed.body).toEqual([expect.objectContaining({ id: made.body.id, grant: "viewer@site-a", lastUsedAt: expect.any(String) })]);
    expect(JSON.stringify(listed.body)).not.toMatch(/rhdt_|secretHash/);
  });

  it("refuses a grant wider than its maker's, and bodies that are not one", async () => {
    expect((await make(as("ops"), { name: "x", role: "operator", expiresInDays: 1 })).status).toBe(400);
    expect((await make(as("ops"), { name: "x", role: "admin@site-a", expiresInDays: 1 })).status).toBe(400);
    expect((await make(as("ops"), { name: "x", role: "operator@site-b", expiresInDays: 1 })).status).toBe(400);
    expect((await make(as("watcher"), { name: "x", role: "viewer@site-b", expiresInDays: 1 })).status).toBe(201);
    for (const body of [
      { name: "x", role: "root", expiresInDays: 1 },
      { name: "x", role: "viewer", expiresInDays: 0 },
      { name: "", role: "viewer", expiresInDays: 1 },
      { name: "x", role: "viewer" },
    ]) {
      const answer = await make(as("root"), body);
      expect({ body, status: answer.status }).toEqual({ body, status: 400 });
    }
    expect((await api({ method: "GET", path: `${A}/tokens`, headers: as("root") })).body).toHaveLength(1);
  });

  it("lists and revokes a caller's own only (an admin of every site, anyone's); a revoked token is refused at once", async () => {
    const mine = (await make(as("ops"), { name: "a", role: "operator@site-a", expiresInDays: 1 })).body;
    const theirs = (await make(as("watcher"), { name: "b", role: "viewer", expiresInDays: 1 })).body;
    expect((await api({ method: "GET", path: `${A}/tokens`, headers: as("ops") })).body.map((t: { id: string }) => t.id)).toEqual([
      mine.id,
    ]);
    expect((await api({ method: "GET", path: `${A}/tokens`, headers: as("root") })).body).toHaveLength(2);
    expect((await api({ method: "DELETE", path: `${A}/tokens/${theirs.id}`, headers: as("ops") })).status).toBe(404);
    expect((await api({ method: "GET", path: `${A}/nodes`, headers: bearer(theirs.token) })).status).toBe(200);
    expect((await api({ method: "DELETE", path: `${A}/tokens/${theirs.id}`, headers: as("root") })).status).toBe(204);
    expect((await api({ method: "GET", path: `${A}/nodes`, headers: bearer(theirs.token) })).status).toBe(401);
    expect((await api({ method: "DELETE", path: `${A}/tokens/${mine.id}`, headers: bearer(mine.token) })).status).toBe(204);
    expect((await api({ method: "GET", path: `${A}/nodes`, headers: bearer(mine.token) })).status).toBe(401);
    expect((await api({ method: "DELETE", path: `${A}/tokens/not-a-token-id`, headers: as("root") })).status).toBe(404);
  });

  it("refuses an expired token", async () => {
    const made = (await make(as("root"), { name: "t", role: "viewer", expiresInDays: 1 })).body;
    expect((await api({ method: "GET", path: `${A}/nodes`, headers: bearer(made.token) })).status).toBe(200);
    const store = apiTokenStore();
    const kept = (await store.get(made.id))!;
    await store.delete(made.id);
    await store.create({ ...kept, expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect((await api({ method: "GET", path: `${A}/nodes`, headers: bearer(made.token) })).status).toBe(401);
  });

  it("refuses a wrong secret and a forged token, and limits guessing", async () => {
    const made = (await make(as("root"), { name: "t", role: "viewer", expiresInDays: 1 })).body;
    const task = await api({ method: "GET", path: "/todo/api/v1.0/tasks", headers: bearer(made.token) });
    expect(task.status).toBe(200);
    const wrong = `${made.token.slice(0, -4)}AAAA`;
    for (const forged of [wrong, "rhdt_short", `rhdt_${"A".repeat(16)}_${"B".repeat(32)}`]) {
      expect((await api({ method: "GET", path: `${A}/nodes`, headers: bearer(forged) })).status).toBe(401);
    }
    for (let i = 0; i < 10; i += 1) await api({ method: "GET", path: `${A}/nodes`, headers: bearer(wrong) });
    expect((await api({ method: "GET", path: `${A}/nodes`, headers: bearer(wrong) })).status).toBe(429);
  });
});

describe("a token at each use: offboarding", () => {
  const users = (names: string[]) => names.map((user) => `${user}:${PASSWORD}`).join(",");
  const reconfigure = (env: Record<string, string>) => {
    Object.assign(process.env, env);
    reloadSettings();
  };
  const newSite = (token: string, name: string) =>
    api({ method: "POST", path: `${A}/sites`, headers: { ...bearer(token), ...json }, body: JSON.stringify({ name }) });
  const nodes = (token: string) => api({ method: "GET", path: `${A}/nodes`, headers: bearer(token) });

  it("holds no more than its owner holds now: demoted in AUTH_ROLES, an admin token is a viewer's; removed from AUTH_USERS, every token ends, /login's too", async () => {
    reconfigure({ AUTH_USERS: users(["root", "alice"]), AUTH_ROLES: "alice=admin" });
    const made = await make(as("alice"), { name: "wide", role: "admin", expiresInDays: 366 });
    expect(made.status).toBe(201);
    const login = await api({
      method: "POST",
      path: "/login",
      headers: json,
      body: JSON.stringify({ username: "alice", password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    expect((await newSite(made.body.token, "made-by-alice")).status).toBe(201);

    reconfigure({ AUTH_ROLES: "alice=viewer@A" });
    expect((await newSite(made.body.token, "after-demotion")).status).toBe(403);
    expect((await newSite(login.body.token, "after-demotion")).status).toBe(403);
    expect((await nodes(made.body.token)).status).toBe(200);

    reconfigure({ AUTH_USERS: users(["root"]) });
    expect((await nodes(made.body.token)).status).toBe(401);
    expect((await nodes(login.body.token)).status).toBe(401);
    // Listed again, the user's tokens hold what they hold now.
    reconfigure({ AUTH_USERS: users(["root", "alice"]), AUTH_ROLES: "alice=operator" });
    expect((await newSite(made.body.token, "operator-now")).status).toBe(403);
    expect((await nodes(made.body.token)).status).toBe(200);
  });
});
