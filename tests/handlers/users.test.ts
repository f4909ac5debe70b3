import { reloadSettings } from "../../lib/config/settings";
import { api, freshContainer } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

/**
 * Issue 55: RackHD 2.0's `/users`, read-only (users are this deployment's configuration): the
 * Basic users with RackHD's role names and their grants, for a viewer of every site.
 */
const PASSWORD = "U5ers-Pa55-word";
const as = (user: string) => ({ authorization: basic(user, PASSWORD) });

beforeAll(() => {
  Object.assign(process.env, {
    PROVISIONING_AUTH: "on",
    AUTH_USERS: ["root", "ops", "auditor", "local", "nobody"].map((user) => `${user}:${PASSWORD}`).join(","),
    AUTH_ROLES: "ops=operator,ops=viewer@rack-2,auditor=viewer,local=admin@rack-1",
    AUTH_DEFAULT_ROLE: "admin",
  });
  process.env.AUTH_ROLES += ",nobody=viewer@rack-0";
  reloadSettings();
  freshContainer();
});
afterAll(() => {
  for (const name of ["PROVISIONING_AUTH", "AUTH_USERS", "AUTH_ROLES", "AUTH_DEFAULT_ROLE"]) delete process.env[name];
  reloadSettings();
});

describe("RackHD 2.0's /users", () => {
  it("lists each Basic user with RackHD's name for their highest role, and their grants", async () => {
    const listed = await api({ method: "GET", path: "/api/2.0/users", headers: as("auditor") });
    expect(listed).toMatchObject({ status: 200 });
    expect(listed.body).toEqual([
      { username: "auditor", role: "ReadOnly", grants: ["viewer@*"] },
      { username: "local", role: "Administrator", grants: ["admin@rack-1"] },
      { username: "nobody", role: "ReadOnly", grants: ["viewer@rack-0"] },
      { username: "ops", role: "Operator", grants: ["operator@*", "viewer@rack-2"] },
      { username: "root", role: "Administrator", grants: ["admin@*"] },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(PASSWORD);
    expect(await api({ method: "GET", path: "/api/1.1/users/ops", headers: as("root") })).toMatchObject({
      status: 200,
      body: { username: "ops", role: "Operator" },
    });
    expect(await api({ method: "GET", path: "/api/2.0/users/ghost", headers: as("root") })).toMatchObject({
      status: 404,
      body: { message: "Could not find user ghost" },
    });
  });

  it("is read by a viewer of every site only, and takes no change (users are configuration: 405)", async () => {
    expect((await api({ method: "GET", path: "/api/2.0/users", headers: as("local") })).status).toBe(403);
    expect((await api({ method: "GET", path: "/api/2.0/users", headers: {} })).status).toBe(401);
    const created = await api({
      method: "POST",
      path: "/api/2.0/users",
      headers: { ...as("root"), "content-type": "application/json" },
      body: '{"username":"x","password":"y","role":"Administrator"}',
    });
    expect(created).toMatchObject({ status: 405, headers: expect.objectContaining({ allow: "GET, OPTIONS" }) });
  });
});
