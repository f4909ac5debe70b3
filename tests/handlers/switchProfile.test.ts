import { execFileSync } from "node:child_process";
import { nodeIdForMac } from "../../lib/provisioning/ids";
import { api, freshContainer, get, send } from "../support/api";

const A = "/api/1.1";
const SWITCH_MAC = "00:1c:73:00:00:01";
const NODE = nodeIdForMac(SWITCH_MAC);

beforeEach(() => {
  for (const name of ["PROVISIONING_AUTH", "AUTH_USERS", "API_SERVER", "DISCOVERY_GRAPH"]) delete process.env[name];
  process.env.DEMO_NODES = "off";
  freshContainer();
});

describe("GET /profiles/switch/{vendor} (RackHD 1.1's switch route)", () => {
  it("refuses a vendor RackHD did not know with 400, and creates nothing", async () => {
    expect(await get(`${A}/profiles/switch/unknown?macs=${SWITCH_MAC}`)).toMatchObject({
      status: 400,
      body: { message: "Unknown switch vendor unknown" },
    });
    expect((await get(`${A}/nodes`)).body).toEqual([]);
  });

  it("answers a switch already discovered whatever vendor it names, as RackHD 1.1 did (issue 50)", async () => {
    expect((await get(`${A}/profiles/switch/cisco?macs=${SWITCH_MAC}`)).status).toBe(200);
    // RackHD's own specs ask with vendors it never listed ('testswitchvendor', 'Acme').
    for (const vendor of ["testswitchvendor", "Acme"]) {
      const answer = await get(`${A}/profiles/switch/${vendor}?macs=${SWITCH_MAC}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toContain(`/profiles/switch/${vendor.toLowerCase()}?macs=${SWITCH_MAC}`);
    }
    expect((await get(`${A}/nodes`)).body).toHaveLength(1);
  });

  it("creates a switch node for a new MAC and answers the task runner, which names its node's tasks", async () => {
    const answer = await get(`${A}/profiles/switch/Arista?macs=${SWITCH_MAC}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain(`TASKS_URI = "https://`);
    expect(answer.body).toContain(`/api/current/tasks/${NODE}?nodeId=${NODE}"`);
    expect((await get(`${A}/nodes/${NODE}`)).body).toMatchObject({ type: "switch", name: SWITCH_MAC, identifiers: [SWITCH_MAC] });
    // The same switch again: the same node.
    expect((await get(`${A}/profiles/switch/arista?macs=${SWITCH_MAC}`)).status).toBe(200);
    expect((await get(`${A}/nodes`)).body).toHaveLength(1);
    // Python can read it (both the one on this machine and, by its syntax, a switch's).
    execFileSync("python3", ["-c", "import sys; compile(sys.stdin.read(), 'taskrunner.py', 'exec')"], { input: answer.body });
  });

  it("knows a switch that names no MAC by the lookup of its address, as RackHD did; with neither, 400", async () => {
    expect((await get(`${A}/profiles/switch/cisco`)).status).toBe(400);
    await send("POST", `${A}/lookups`, { macAddress: SWITCH_MAC, ipAddress: "203.0.113.7" });
    expect((await get(`${A}/profiles/switch/cisco`)).status).toBe(200);
    expect((await get(`${A}/nodes/${NODE}`)).body.type).toBe("switch");
  });

  it("answers the boot profile of a workflow's task waiting for the switch", async () => {
    await get(`${A}/profiles/switch/brocade?macs=${SWITCH_MAC}`);
    // A switch has no noop OBM service (RackHD's OBM library by node type): a graph with no power step.
    const graph = {
      friendlyName: "Boot a switch",
      injectableName: "Graph.Switch.Boot",
      tasks: [{ label: "install-os", taskName: "Task.Os.Install.CentOS" }],
    };
    expect((await send("PUT", `${A}/workflows`, graph)).status).toBe(200);
    const started = await send("POST", `${A}/nodes/${NODE}/workflows`, {
      name: "Graph.Switch.Boot",
      options: { defaults: { version: "7", repo: "http://mirror/centos/7" } },
    });
    expect(started.status).toBe(201);
    const answer = await get(`${A}/profiles/switch/brocade?macs=${SWITCH_MAC}`);
    expect(answer.body).toMatch(/^#!ipxe/);
    expect(answer.body).toContain("http://mirror/centos/7");
    // A profile put under the task's profile name is the one served, as on the compute route.
    const put = await api({
      method: "PUT",
      path: `${A}/profiles/library/install-centos.ipxe`,
      headers: { "content-type": "text/plain" },
      body: "echo Switch <%=nodeId%> boots from <%=repo%>",
    });
    expect(put.status).toBe(200);
    expect((await get(`${A}/profiles/switch/brocade?macs=${SWITCH_MAC}`)).body).toContain(
      `echo Switch ${NODE} boots from http://mirror/centos/7`,
    );
  });
});
