import { auditTrail } from "../../lib/audit/auditTrail";
import { reloadSettings } from "../../lib/config/settings";
import { api, freshContainer } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

/**
 * Issue 55: RackHD's `POST /login` (on-http's login router and auth service): a Basic user's name
 * and password for a token its clients send as `Authorization: JWT <token>` or `?auth_token=`, with
 * RackHD's answers (400 "Missing credentials", 401 "Invalid username or password").
 */
const PASSWORD = "L0gin-Pa55-word";
const json = { "content-type": "application/json" };
const logIn = (body: unknown, sourceIp?: string) =>
  api({ method: "POST", path: "/login", headers: json, body: JSON.stringify(body), ...(sourceIp && { sourceIp }) });

beforeEach(() => {
  Object.assign(process.env, {
    PROVISIONING_AUTH: "on",
    DEMO_NODES: "on",
    AUTH_USERS: `admin:${PASSWORD},watcher:${PASSWORD}`,
    AUTH_ROLES: "watcher=viewer@*,watcher=operator@rack-9",
  });
  reloadSettings();
  freshContainer();
});
afterAll(() => {
  for (const name of ["PROVISIONING_AUTH", "DEMO_NODES", "AUTH_USERS", "AUTH_ROLES"]) delete process.env[name];
  reloadSettings();
});

describe("RackHD's POST /login", () => {
  it("gives a token RackHD's clients send as `JWT`, in the query, or as a Bearer token, for a day", async () => {
    const answer = await logIn({ username: "admin", password: PASSWORD });
    expect(answer).toMatchObject({ status: 200, body: { token: expect.stringMatching(/^rhdt_/) } });
    const { token } = answer.body;
    expect(await api({ method: "GET", path: "/api/1.1/nodes", headers: { authorization: `JWT ${token}` } })).toMatchObject({ status: 200 });
    expect(await api({ method: "GET", path: "/api/1.1/nodes", headers: { authorization: `Bearer ${token}` } })).toMatchObject({
      status: 200,
    });
    // The query's token is taken out before the handler and its page links see the query.
    const queried = await api({ method: "GET", path: `/api/1.1/nodes?auth_token=${token}&limit=1`, headers: {} });
    expect(queried.status).toBe(200);
    expect(queried.body).toHaveLength(1);
    expect(queried.headers.link ?? "").not.toContain(token);
    expect(queried.headers.link ?? "").not.toContain("auth_token");

    const listed = await api({ method: "GET", path: "/api/1.1/tokens", headers: { authorization: basic("admin", PASSWORD) } });
    const kept = listed.body.find((each: { name: string }) => each.name === "login");
    expect(kept).toMatchObject({ owner: "admin", grant: "admin@*" });
    expect(Date.parse(kept.expiresAt) - Date.parse(kept.createdAt)).toBeGreaterThan(24 * 3_600_000 - 2000);
    // Revoked as any token.
    const revoke = await api({
      method: "DELETE",
      path: `/api/1.1/tokens/${kept.id}`,
      headers: { authorization: basic("admin", PASSWORD) },
    });
    expect(revoke.status).toBe(204);
    expect(await api({ method: "GET", path: "/api/1.1/nodes", headers: { authorization: `JWT ${token}` } })).toMatchObject({ status: 401 });
  });

  it("holds every grant of the user, and no more", async () => {
    const { token } = (await logIn({ username: "watcher", password: PASSWORD })).body;
    const as = { authorization: `JWT ${token}` };
    expect((await api({ method: "GET", path: "/api/1.1/nodes", headers: as })).status).toBe(200);
    expect((await api({ method: "POST", path: "/api/1.1/sites", headers: { ...as, ...json }, body: '{"name":"x"}' })).status).toBe(403);
    const listed = await api({ method: "GET", path: "/api/1.1/tokens", headers: as });
    expect(listed.body.map((each: { grant: string }) => each.grant)).toEqual(["viewer@*,operator@rack-9"]);
  });

  it("answers as RackHD did: 400 Missing credentials, 401 Invalid username or password, then 429; each recorded", async () => {
    for (const body of [{}, { username: "admin" }, { password: PASSWORD }, { username: "", password: "" }]) {
      expect(await logIn(body)).toMatchObject({ status: 400, body: { message: "Missing credentials" } });
    }
    expect(await logIn({ username: "admin", password: "wrong" }, "198.51.100.9")).toMatchObject({
      status: 401,
      body: { message: "Invalid username or password" },
    });
    expect(await logIn({ username: "nobody", password: "wrong" }, "198.51.100.9")).toMatchObject({ status: 401 });
    for (let i = 0; i < 9; i += 1) await logIn({ username: "admin", password: `wrong-${i}` }, "198.51.100.9");
    // Ten failures for the user from this address: held, even with the right password.
    expect(await logIn({ username: "admin", password: PASSWORD }, "198.51.100.9")).toMatchObject({ status: 429 });
    expect(await logIn({ username: "admin", password: PASSWORD }, "203.0.113.50")).toMatchObject({ status: 200 });
    const trail = await auditTrail().day(new Date().toISOString().slice(0, 10), { limit: 100 });
    const logins = trail.filter((record) => record.action === "login");
    expect(logins.filter((record) => record.status === 401).map((record) => record.actor)).toEqual(
      expect.arrayContaining(["admin", "nobody"]),
    );
    expect(logins).toEqual(expect.arrayContaining([expect.objectContaining({ actor: "admin", verified: true, status: 200 })]));
    expect(JSON.stringify(trail)).not.toContain(PASSWORD);
  });
});
