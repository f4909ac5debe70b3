import { reloadSettings } from "../../lib/config/settings";
import { ROUTES } from "../../lib/http/routes";
import type { Endpoint } from "../../lib/http/routes/endpoint";
import { provisioningStores } from "../../lib/store/compositionRoot";
import { cedarPermits } from "../../scripts/policyDecisions";
import { api, freshContainer } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

jest.setTimeout(300_000);

/**
 * Issue 55: roles per site, decided in one place. Every operator endpoint × role × own and other
 * site, through the real handler stacks, against Cedar's own answer for the policy
 * (lib/auth/policy.cedar): a permitted request gets what an admin of every site gets for it (in the
 * same fresh state), a refused one a 403, and another site's machine or site is a 404 as for one
 * that does not exist.
 */
const A = "/api/1.1";
const PASSWORD = "R0les-Pa55-word";
const ROLE_NAMES = ["viewer", "operator", "admin"] as const;
type RoleName = (typeof ROLE_NAMES)[number];
const SITE_A = "site-a";
const SITE_B = "site-b";

const header = (user: string) => ({ authorization: basic(user, PASSWORD) });

beforeAll(() => {
  const users = ["root", ...ROLE_NAMES.flatMap((role) => [`${role}A`, `${role}All`])];
  Object.assign(process.env, {
    DEMO_NODES: "off",
    PROVISIONING_AUTH: "on",
    TASKS_AUTH: "all",
    LOG_REQUESTS: "off",
    AUTH_USERS: users.map((user) => `${user}:${PASSWORD}`).join(","),
    // root is named nowhere: AUTH_DEFAULT_ROLE's admin on every site.
    AUTH_ROLES: ROLE_NAMES.flatMap((role) => [`${role}A=${role}@${SITE_A}`, `${role}All=${role}`]).join(","),
  });
  reloadSettings();
});

afterAll(() => {
  for (const name of ["AUTH_ROLES", "TASKS_AUTH", "AUTH_USERS", "PROVISIONING_AUTH"]) delete process.env[name];
  reloadSettings();
});

/** A fresh container with sites A and B, a machine in each (and none in no site). */
async function world(): Promise<{ nodeA: string; nodeB: string }> {
  freshContainer();
  const stores = await provisioningStores();
  const stamp = new Date().toISOString();
  for (const id of [SITE_A, SITE_B]) await stores.sites.create({ id, name: id, createdAt: stamp, updatedAt: stamp });
  const made: string[] = [];
  for (const [site, mac] of [
    [SITE_A, "52:54:00:aa:00:01"],
    [SITE_B, "52:54:00:bb:00:01"],
  ]) {
    const node = await api({
      method: "POST",
      path: `${A}/nodes`,
      headers: { ...header("root"), "content-type": "application/json" },
      body: JSON.stringify({ name: site, identifiers: [mac] }),
    });
    expect(node.status).toBe(201);
    const moved = await api({
      method: "PUT",
      path: `${A}/nodes/${node.body.id}/site`,
      headers: { ...header("root"), "content-type": "application/json" },
      body: JSON.stringify({ site }),
    });
    expect(moved.status).toBe(200);
    made.push(node.body.id as string);
  }
  return { nodeA: made[0], nodeB: made[1] };
}

const NO_NODE = "5f0c0c0c0c0c0c0c0c0c0c0c";
const NO_SITE = "site-none";

/** One request of an entry, on site A's resources (`own`) or site B's (or `site`). */
function requestOf(entry: Endpoint, ids: { nodeA: string; nodeB: string }, own: boolean, site = own ? SITE_A : SITE_B) {
  const path = entry.path
    .replace("{version}", "1.1")
    .replace("{identifier}", own ? ids.nodeA : ids.nodeB)
    .replace(/^\/api\/1\.1\/sites\/\{id\}/, `${A}/sites/${site}`)
    .replace(/\{\w+\}/g, "x");
  const body = entry.method === "GET" ? undefined : "{}";
  return { method: entry.method, path, body, ...(body && { headers: { "content-type": "application/json" } }) };
}

/** An entry's request on A's resources or B's, sent as `user`. */
function send(entry: Endpoint, user: string, ids: { nodeA: string; nodeB: string }, own: boolean, site?: string) {
  const request = requestOf(entry, ids, own, site);
  return api({ ...request, headers: { ...request.headers, ...header(user) } });
}

type Expected = "as admin" | "as for none" | 403;

/** What the policy says a grant of `role` (on every site, or on site A) gets for the request. */
function expected(entry: Endpoint, role: RoleName, everySite: boolean, own: boolean): Expected {
  const permitted = cedarPermits(entry, role, everySite);
  if (everySite || entry.scope === "any" || entry.scope === "all" || own) return permitted ? "as admin" : 403;
  // Another site is unknown to a grant on site A alone: as a site that does not exist.
  if (entry.scope === "site") return "as for none";
  if (!permitted) return 403;
  // A list holds only site A's machines (below), whatever the request.
  if (!entry.path.includes("{identifier}")) return "as admin";
  // Another site's machine: what an admin gets for a machine that does not exist.
  return "as for none";
}

const OPERATOR_ROUTES = ROUTES.filter((entry) => entry.auth === "northbound" || entry.auth === "tasks" || entry.auth === "tasksList");

describe("roles per site: every endpoint × role × own and other site, as the policy says", () => {
  it("covers every operator endpoint", () => {
    expect(OPERATOR_ROUTES.length).toBeGreaterThan(110);
  });

  it.each(OPERATOR_ROUTES.map((entry) => [`${entry.method} ${entry.path}`, entry] as const))("%s", async (_name, entry) => {
    const seen: string[] = [];
    const wanted: string[] = [];
    for (const own of [true, false]) {
      for (const role of ROLE_NAMES) {
        for (const everySite of [true, false]) {
          // Each in a fresh world: a write the first made must not change what the second finds.
          const asAdmin = (await send(entry, "root", await world(), own)).status;
          const asForNone = (await send(entry, "root", { nodeA: NO_NODE, nodeB: NO_NODE }, own, NO_SITE)).status;
          const answer = await send(entry, `${role}${everySite ? "All" : "A"}`, await world(), own);
          const want = expected(entry, role, everySite, own);
          const label = `${role}@${everySite ? "*" : SITE_A} ${own ? "own" : "other"}`;
          seen.push(`${label}: ${answer.status}`);
          // A body refused before the machine is looked up says nothing of it: a 400 for any machine.
          wanted.push(`${label}: ${want === "as admin" ? asAdmin : want === "as for none" ? asForNone : want}`);
        }
      }
    }
    expect(seen).toEqual(wanted);
  });
});

describe("what a grant on named sites sees", () => {
  it("lists only its sites' machines, and reads another site's as absent", async () => {
    const { nodeA, nodeB } = await world();
    const list = await api({ method: "GET", path: `${A}/nodes`, headers: header("viewerA") });
    expect(list.body.map((node: { id: string }) => node.id)).toEqual([nodeA]);
    const all = await api({ method: "GET", path: `${A}/nodes`, headers: header("viewerAll") });
    expect(all.body.map((node: { id: string }) => node.id).sort()).toEqual([nodeA, nodeB].sort());
    const other = await api({ method: "GET", path: `${A}/nodes/${nodeB}`, headers: header("operatorA") });
    const none = await api({ method: "GET", path: `${A}/nodes/${NO_NODE}`, headers: header("operatorA") });
    expect({ status: other.status, body: other.body }).toEqual({
      status: none.status,
      body: { ...none.body, message: expect.any(String) },
    });
    expect(other.status).toBe(404);
  });

  it("refuses what it may see but not do, and changes nothing", async () => {
    const { nodeA } = await world();
    const removed = await api({ method: "DELETE", path: `${A}/nodes/${nodeA}`, headers: header("viewerA") });
    expect(removed.status).toBe(403);
    expect((await api({ method: "GET", path: `${A}/nodes/${nodeA}`, headers: header("viewerA") })).status).toBe(200);
  });

  it("reads a removed machine's events by its id, but never another site's living one's", async () => {
    const { nodeA, nodeB } = await world();
    expect((await api({ method: "GET", path: `${A}/nodes/${nodeB}/events`, headers: header("viewerA") })).status).toBe(404);
    expect((await api({ method: "DELETE", path: `${A}/nodes/${nodeA}`, headers: header("operatorA") })).status).toBe(200);
    const events = await api({ method: "GET", path: `${A}/nodes/${nodeA}/events`, headers: header("viewerA") });
    expect(events.status).toBe(200);
    expect(events.body.at(-1)).toMatchObject({ type: "node", action: "removed" });
  });
});
