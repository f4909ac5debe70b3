import { nodeIdForMac } from "../../lib/provisioning/ids";
import { sampleMachine } from "../../scripts/microkernel";
import { freshContainer, get, send } from "../support/api";
import { discoverMachine } from "../support/microkernelInProcess";

const A = "/api/1.1";
const NODE = nodeIdForMac("08:00:27:27:eb:12");

const HELLO_TASK = {
  friendlyName: "Hello",
  injectableName: "Task.Hello",
  implementsTask: "Task.Base.noop",
  options: { greeting: "hi" },
  properties: {},
};
const HELLO_GRAPH = {
  friendlyName: "Hello graph",
  injectableName: "Graph.Hello",
  options: { hello: { greeting: "hello there" } },
  tasks: [
    { label: "hello", taskName: "Task.Hello" },
    { label: "after", taskName: "Task.noop", waitOn: { hello: "succeeded" } },
  ],
};

beforeEach(() => {
  for (const name of ["PROVISIONING_AUTH", "AUTH_USERS", "API_SERVER", "MEMORY_STORE_CAPACITY"]) delete process.env[name];
  process.env.DEMO_NODES = "on";
  freshContainer();
});

describe("PUT /workflows/tasks", () => {
  it("stores a task (RackHD B/C answers the stored definition) and the library serves it", async () => {
    const answer = await send("PUT", `${A}/workflows/tasks`, { ...HELLO_TASK, extra: "dropped" });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject(HELLO_TASK);
    expect(answer.body).not.toHaveProperty("extra");
    const library = (await get(`${A}/workflows/tasks/library`)).body;
    expect(library.find((task: { injectableName: string }) => task.injectableName === "Task.Hello")).toEqual(HELLO_TASK);
  });

  it("accepts a task on a base task that does not exist (FIT defines one implementing im_1)", async () => {
    const fit = { friendlyName: "fn_1", injectableName: "in_1", implementsTask: "im_1", options: {}, properties: {} };
    expect((await send("PUT", `${A}/workflows/tasks`, fit)).status).toBe(200);
    const names = (await get(`${A}/workflows/tasks/library`)).body.map((task: { injectableName: string }) => task.injectableName);
    expect(names).toContain("in_1");
  });

  it("takes `options: null` as no options (the bosh CPI's tasks; RackHD stored them)", async () => {
    const answer = await send("PUT", `${A}/workflows/tasks`, { ...HELLO_TASK, options: null });
    expect(answer).toMatchObject({ status: 200, body: { ...HELLO_TASK, options: {} } });
    const library = (await get(`${A}/workflows/tasks/library`)).body;
    expect(library.find((task: { injectableName: string }) => task.injectableName === "Task.Hello").options).toEqual({});
  });

  it("replaces a task of the same name, keeping when it was created", async () => {
    const first = (await send("PUT", `${A}/workflows/tasks`, HELLO_TASK)).body;
    const second = (await send("PUT", `${A}/workflows/tasks`, { ...HELLO_TASK, options: { greeting: "bye" } })).body;
    expect(second).toMatchObject({ options: { greeting: "bye" }, createdAt: first.createdAt });
  });

  it.each([
    [{ ...HELLO_TASK, implementsTask: undefined }, "implementsTask (string) is required"],
    [{ ...HELLO_TASK, options: undefined }, "options (object) is required"],
    [{ ...HELLO_TASK, friendlyName: 3 }, "friendlyName (string) is required"],
    [{ ...HELLO_TASK, options: "x" }, "options (object) is required"],
    [[HELLO_TASK], "Body must be a JSON object"],
  ])("refuses %j with 400 and stores nothing", async (body, message) => {
    const answer = await send("PUT", `${A}/workflows/tasks`, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message });
    expect((await get(`${A}/workflows/tasks/library`)).body.map((task: { injectableName: string }) => task.injectableName)).not.toContain(
      "Task.Hello",
    );
  });
});

describe("PUT /workflows", () => {
  it("stores a graph on user tasks, answers its name, and the library serves it", async () => {
    await send("PUT", `${A}/workflows/tasks`, HELLO_TASK);
    const answer = await send("PUT", `${A}/workflows`, HELLO_GRAPH);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("Graph.Hello");
    expect((await get(`${A}/workflows/library/Graph.Hello`)).body).toEqual(HELLO_GRAPH);
    const names = (await get(`${A}/workflows/library`)).body.map((graph: { injectableName: string }) => graph.injectableName);
    expect(names).toEqual(expect.arrayContaining(["Graph.InstallCentOS", "Graph.Hello"]));
  });

  it("refuses a graph naming an unknown task, with a 400 naming it, and stores nothing", async () => {
    const answer = await send("PUT", `${A}/workflows`, HELLO_GRAPH);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe("taskDefinition (object) is required: no task named Task.Hello in the library");
    expect((await get(`${A}/workflows/library/Graph.Hello`)).status).toBe(404);
  });

  it("refuses a graph on a task whose base task does not exist", async () => {
    await send("PUT", `${A}/workflows/tasks`, { ...HELLO_TASK, implementsTask: "im_1" });
    expect((await send("PUT", `${A}/workflows`, HELLO_GRAPH)).body).toEqual({ message: "Base task definition for im_1 should exist" });
  });

  it.each([
    [{ tasks: [] }, "injectableName (string) is required"],
    [{ injectableName: "Graph.X", friendlyName: "X", tasks: "no" }, "Graph.tasks ([object]) is required (at most 256 tasks)"],
    [{ injectableName: "Graph.X", tasks: [] }, "friendlyName (string) is required"],
  ])("refuses %j with 400", async (body, message) => {
    const answer = await send("PUT", `${A}/workflows`, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message });
  });
});

describe("running user-defined graphs", () => {
  it("runs a user graph on a node, its options merged like a built-in graph's", async () => {
    await send("PUT", `${A}/workflows/tasks`, HELLO_TASK);
    await send("PUT", `${A}/workflows`, HELLO_GRAPH);
    const started = await send("POST", `${A}/nodes/${NODE}/workflows`, { name: "Graph.Hello", options: { defaults: { greeting: "x" } } });
    expect(started.status).toBe(201);
    expect(started.body._status).toBe("succeeded");
    const hello = Object.values(started.body.tasks).find((task: any) => task.label === "hello") as any;
    expect(hello).toMatchObject({ state: "succeeded", options: { greeting: "hello there" }, implementsTask: "Task.Base.noop" });
  });

  it("a user definition of a built-in name replaces it", async () => {
    const mine = { ...HELLO_GRAPH, injectableName: "Graph.noop-example", tasks: [{ label: "only", taskName: "Task.noop" }] };
    expect((await send("PUT", `${A}/workflows`, mine)).status).toBe(200);
    expect((await get(`${A}/workflows/library/Graph.noop-example`)).body.tasks).toEqual([{ label: "only", taskName: "Task.noop" }]);
    const names = (await get(`${A}/workflows/library`)).body.map((graph: { injectableName: string }) => graph.injectableName);
    expect(names.filter((name: string) => name === "Graph.noop-example")).toHaveLength(1);
  });
});

describe("POST /workflows (a graph with no node)", () => {
  it("runs a graph whose tasks need no machine: 201, no node in the record", async () => {
    const answer = await send("POST", `${A}/workflows?name=Graph.noop-example`);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      injectableName: "Graph.noop-example",
      _status: "succeeded",
      context: { graphId: answer.body.instanceId },
    });
    expect(answer.body).not.toHaveProperty("node");
    expect((await get(`${A}/workflows/${answer.body.instanceId}`)).body._status).toBe("succeeded");
  });

  it("refuses a graph with a task that needs a machine, naming it, and stores nothing", async () => {
    const before = (await get(`${A}/workflows`)).body.length;
    const answer = await send("POST", `${A}/workflows`, { name: "Graph.Reboot.Node" });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(
      "Graph Graph.Reboot.Node needs a node: its task reboot (Task.Obm.Node.Reboot) runs on one; use POST /nodes/{identifier}/workflows",
    );
    expect((await get(`${A}/workflows`)).body).toHaveLength(before);
  });

  it("answers 404 for an unknown graph and 400 without a name", async () => {
    expect((await send("POST", `${A}/workflows`, { name: "Graph.Nope" })).body).toEqual({
      message: "Graph definition not found for Graph.Nope",
    });
    expect((await send("POST", `${A}/workflows`, {})).status).toBe(400);
  });
});

describe("Task.Obm.Ipmi.CreateSettings (RackHD on-tasks)", () => {
  const MAC = "52:54:00:bb:10:01";
  const LAN_PRINT =
    "IP Address Source       : DHCP Address\nIP Address              : 10.9.8.7\nMAC Address             : 52:54:00:bb:10:99\n";
  const withBmc = (mac: string) => {
    const sample = sampleMachine(mac);
    return (cmd: string) => (cmd === "sudo ipmitool lan print" ? { stdout: LAN_PRINT, stderr: "", code: 0 } : sample(cmd));
  };
  const GRAPH = {
    friendlyName: "Set up IPMI",
    injectableName: "Graph.Obm.Ipmi.Setup",
    options: { "create-obm": { user: "admin", password: "secret" } },
    tasks: [{ label: "create-obm", taskName: "Task.Obm.Ipmi.CreateSettings" }],
  };

  beforeEach(() => {
    process.env.DEMO_NODES = "off";
  });

  it("is in the task library, so a graph that uses it is stored", async () => {
    const library = (await get(`${A}/workflows/tasks/library`)).body.map((task: { injectableName: string }) => task.injectableName);
    expect(library).toContain("Task.Obm.Ipmi.CreateSettings");
    expect((await send("PUT", `${A}/workflows`, GRAPH)).status).toBe(200);
  });

  it("sets the node's IPMI OBM from its bmc catalog, the password kept and never answered", async () => {
    await discoverMachine(MAC, withBmc(MAC));
    const node = nodeIdForMac(MAC);
    await send("PUT", `${A}/workflows`, GRAPH);
    const run = await send("POST", `${A}/nodes/${node}/workflows`, { name: "Graph.Obm.Ipmi.Setup" });
    expect(run.body._status).toBe("succeeded");
    const obm = (await get(`${A}/nodes/${node}/obm`)).body;
    expect(obm).toEqual([
      expect.objectContaining({ service: "ipmi-obm-service", config: expect.objectContaining({ host: "10.9.8.7", user: "admin" }) }),
    ]);
    expect(JSON.stringify(obm)).not.toContain("secret");
  });

  it("fails, saying why, on a node without a bmc catalog", async () => {
    await discoverMachine(MAC);
    await send("PUT", `${A}/workflows`, GRAPH);
    const run = await send("POST", `${A}/nodes/${nodeIdForMac(MAC)}/workflows`, { name: "Graph.Obm.Ipmi.Setup" });
    expect(run.body._status).toBe("failed");
    expect(Object.values(run.body.tasks as Record<string, { error?: string }>)[0].error).toMatch(/has no bmc catalog/);
  });

  it("gives every discovered machine of a SKU its IPMI OBM and pollers, with the SKU's credentials, never answered (issue 37)", async () => {
    const sku = await send("POST", `${A}/skus`, {
      name: "Servers with a BMC",
      rules: [{ path: "bmc.IP Address", equals: "10.9.8.7" }],
      discoveryGraphName: "Graph.Obm.Ipmi.CreateSettings",
      discoveryGraphOptions: { defaults: { user: "ops", password: "Bmc-Pa55" } },
    });
    expect(sku.status).toBe(200);
    expect(sku.body.discoveryGraphOptions).toEqual({ defaults: { user: "ops", password: "REDACTED" } });
    await discoverMachine(MAC, withBmc(MAC));
    const node = nodeIdForMac(MAC);
    const obm = (await get(`${A}/nodes/${node}/obm`)).body;
    expect(obm).toEqual([
      expect.objectContaining({ service: "ipmi-obm-service", config: { host: "10.9.8.7", user: "ops", password: "REDACTED" } }),
    ]);
    expect((await get(`${A}/nodes/${node}/pollers`)).body.length).toBeGreaterThan(0);
    expect(JSON.stringify((await get(`${A}/skus`)).body)).not.toContain("Bmc-Pa55");
  });

  it("refuses to guess a BMC's credentials: with none given the workflow is refused (400), with a blank user the task fails", async () => {
    await discoverMachine(MAC, withBmc(MAC));
    const node = nodeIdForMac(MAC);
    const refused = await send("POST", `${A}/nodes/${node}/workflows`, { name: "Graph.Obm.Ipmi.CreateSettings" });
    expect(refused).toMatchObject({ status: 400, body: { message: "Value does not exist for context.user" } });
    const empty = await send("POST", `${A}/nodes/${node}/workflows`, {
      name: "Graph.Obm.Ipmi.CreateSettings",
      options: { defaults: { user: " ", password: "x" } },
    });
    expect(empty.body._status).toBe("failed");
    expect(JSON.stringify(empty.body)).toContain("No BMC credentials for node");
    expect((await get(`${A}/nodes/${node}/obm`)).body).toEqual([]);
  });
});
