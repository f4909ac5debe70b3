import { reloadSettings } from "../../lib/config/settings";
import { api, freshContainer } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

/**
 * A web page an operator visits must not act with the credentials their browser holds (a Basic
 * sign-in it answered once): a change from another origin is refused whatever the credential, and a
 * form's content type is refused where a route takes JSON or no body. RackHD's clients (no Origin,
 * JSON or no body) and the library's raw PUTs keep working.
 */
const A = "/api/1.1";
const ADMIN = { authorization: basic("admin", "Guard-Pa55") };
const NODE = "6d981c9449891790862c36b1";
const EVIL = "https://evil.example";

beforeEach(() => {
  Object.assign(process.env, {
    DEMO_NODES: "on",
    PROVISIONING_AUTH: "on",
    TASKS_AUTH: "all",
    AUTH_USERS: "admin:Guard-Pa55",
    LOG_REQUESTS: "off",
  });
  reloadSettings();
  freshContainer();
});

afterAll(() => {
  for (const name of ["DEMO_NODES", "PROVISIONING_AUTH", "TASKS_AUTH", "AUTH_USERS", "CORS_ORIGINS"]) delete process.env[name];
  reloadSettings();
});

/** The routes whose body is optional or none, a form could reach with an empty body: each starts or changes something. */
const CHANGES: [string, string][] = [
  ["POST", `${A}/nodes/${NODE}/workflows?name=Graph.Refresh.Immediate.Discovery`],
  ["POST", `${A}/workflows?name=Graph.Refresh.Immediate.Discovery`],
  ["POST", `${A}/tags/demo/nodes/workflows?name=Graph.Refresh.Immediate.Discovery`],
  ["POST", `${A}/nodes/${NODE}/obm/identify`],
  ["POST", `${A}/nodes/${NODE}/instance-credential`],
  ["DELETE", "/todo/api/v1.0/tasks/1"],
];

const workflowsOf = async () => (await api({ method: "GET", path: `${A}/nodes/${NODE}/workflows`, headers: ADMIN })).body.length;

describe("changes from another origin's page", () => {
  it("are refused (403) with the operator's Basic credentials, from a form (Origin) or a script (Sec-Fetch-Site), and change nothing", async () => {
    const before = await workflowsOf();
    for (const [method, path] of CHANGES) {
      for (const headers of <Record<string, string>[]>[
        { origin: EVIL, "content-type": "application/x-www-form-urlencoded" },
        { origin: "null" },
        { "sec-fetch-site": "cross-site", "content-type": "application/json" },
      ]) {
        const answer = await api({ method, path, headers: { ...ADMIN, ...headers }, body: "" });
        expect({ method, path, headers, status: answer.status }).toEqual({ method, path, headers, status: 403 });
        expect(answer.body.message).toMatch(/A change from another site's page is refused/);
      }
    }
    expect(await workflowsOf()).toBe(before);
  });

  it("are refused whatever the credential, and with none before any sign-in is counted", async () => {
    const answer = await api({
      method: "POST",
      path: `${A}/sites`,
      headers: { origin: EVIL, "content-type": "application/json" },
      body: "{}",
    });
    expect(answer.status).toBe(403);
  });

  it("from the service's own page, or an origin CORS_ORIGINS names, go through; `*` trusts no page with a change", async () => {
    const own = await api({
      method: "POST",
      path: `${A}/nodes/${NODE}/obm/identify`,
      headers: { ...ADMIN, origin: "https://abc123.execute-api.us-east-1.amazonaws.com", "sec-fetch-site": "same-origin" },
    });
    expect(own.status).not.toBe(403);
    process.env.CORS_ORIGINS = "https://ops.example";
    reloadSettings();
    const listed = await api({
      method: "POST",
      path: `${A}/nodes/${NODE}/obm/identify`,
      headers: { ...ADMIN, origin: "https://ops.example" },
    });
    expect(listed.status).not.toBe(403);
    process.env.CORS_ORIGINS = "*";
    reloadSettings();
    expect((await api({ method: "POST", path: `${A}/nodes/${NODE}/obm/identify`, headers: { ...ADMIN, origin: EVIL } })).status).toBe(403);
    // Reads are not changes: a page may still be refused the answer by CORS, not by this.
    expect((await api({ method: "GET", path: `${A}/nodes`, headers: { ...ADMIN, origin: EVIL } })).status).toBe(200);
  });
});

describe("a form's content type", () => {
  it("is refused (400) where the body is JSON or none, even empty, and changes nothing", async () => {
    const before = await workflowsOf();
    for (const [method, path] of CHANGES)
      for (const type of ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain;charset=UTF-8"]) {
        const answer = await api({ method, path, headers: { ...ADMIN, "content-type": type }, body: "" });
        expect({ method, path, type, status: answer.status }).toEqual({ method, path, type, status: 400 });
        expect(JSON.stringify(answer.body)).toContain("Content-Type must be application/json");
      }
    expect(await workflowsOf()).toBe(before);
  });

  it("is no bar to RackHD's clients: no body and no type, or JSON, start the workflow", async () => {
    const bare = await api({ method: "POST", path: `${A}/nodes/${NODE}/workflows?name=Graph.Refresh.Immediate.Discovery`, headers: ADMIN });
    expect(bare.status).toBe(201);
  });

  it("is taken by the library's raw PUTs, as RackHD's clients send templates", async () => {
    const put = await api({
      method: "PUT",
      path: `${A}/templates/library/guard.txt`,
      headers: { ...ADMIN, "content-type": "text/plain" },
      body: "echo <%=nodeId%>",
    });
    expect(put.status).toBe(200);
  });
});
