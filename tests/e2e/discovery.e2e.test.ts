import { simulateBoot } from "../../scripts/nodeSimulator";
import { http, type OfflineServer, startOffline } from "../support/offlineServer";

jest.setTimeout(180_000);
const JSON_TYPE = { "content-type": "application/json" };
const MAC = "52:54:00:de:00:01";

/**
 * Discovery end to end, as RackHD's clients drive it, over real HTTP against `serverless offline`
 * (in both stores: the e2e-dynamodb tier runs this file on DynamoDB Local): a new machine boots,
 * the simulator plays its microkernel, the catalogs are there, a SKU defined by rules on them
 * matches, a tag applies, and a graph the operator defines (PUT /workflows/tasks, PUT /workflows)
 * runs on the tagged node and succeeds.
 */
describe("discovery over HTTP: microkernel, catalogs, SKU, tag, a user-defined graph", () => {
  let server: OfflineServer;
  const call = (method: string, path: string, body?: unknown) =>
    http(server.baseUrl, method, `/api/1.1${path}`, {
      headers: body === undefined ? {} : JSON_TYPE,
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startOffline({ DEMO_NODES: "off" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("discovers a new machine and classifies it; the operator's own graph then runs on it", async () => {
    // The operator defines a SKU and a tag before the machine arrives (RackHD's quick start order).
    const sku = await call("POST", "/skus", {
      name: "VirtualBox",
      rules: [{ path: "dmi.System Information.Product Name", equals: "VirtualBox" }],
    });
    expect(sku.status).toBe(200);
    const tag = await call("POST", "/tags", { name: "two-cpu", rules: [{ path: "ohai.cpu.total", equals: 2 }] });
    expect(tag.status).toBe(201);

    const boot = await simulateBoot({ server: server.baseUrl, macs: [MAC], pollMs: 100 });
    expect(boot.outcome).toBe("discovered");
    expect(boot.microkernel).toMatchObject({ rebooted: true });

    const node = (await call("GET", `/nodes/${MAC}`)).body;
    expect(node).toMatchObject({ name: MAC, identifiers: [MAC], sku: sku.body.id, tags: ["two-cpu"] });
    const discovery = (await call("GET", `/nodes/${node.id}/workflows`)).body;
    expect(discovery.map((w: { injectableName: string; _status: string }) => [w.injectableName, w._status])).toEqual([
      ["Graph.SKU.Discovery", "succeeded"],
    ]);

    // Catalogs, as FIT and the bosh CPI read them.
    const catalogs = (await call("GET", `/nodes/${node.id}/catalogs`)).body;
    expect(catalogs.map((c: { source: string }) => c.source)).toEqual(["dmi", "secure-boot", "ohai", "lspci", "lshw", "lsscsi"]);
    for (const catalog of catalogs)
      expect(Object.keys(catalog)).toEqual(expect.arrayContaining(["createdAt", "node", "source", "updatedAt", "data"]));
    expect((await call("GET", `/nodes/${node.id}/catalogs/ohai`)).body.data.dmi.base_board.manufacturer).toBe("Oracle Corporation");
    expect((await call("GET", `/catalogs?source=lshw`)).body[0].data.children[0].children[2].children[0].serial).toBe(MAC);
    expect((await call("GET", `/skus/${sku.body.id}/nodes`)).body.map((n: { id: string }) => n.id)).toEqual([node.id]);
    expect((await call("GET", "/tags/two-cpu/nodes")).body.map((n: { id: string }) => n.id)).toEqual([node.id]);

    // The operator's task and graph, then the graph on every node with the tag.
    const task = await call("PUT", "/workflows/tasks", {
      friendlyName: "Record the rack",
      injectableName: "Task.Record.Rack",
      implementsTask: "Task.Base.noop",
      options: { rack: "unknown" },
      properties: {},
    });
    expect(task.status).toBe(200);
    const graph = await call("PUT", "/workflows", {
      friendlyName: "Rack and stack",
      injectableName: "Graph.Rack.Stack",
      options: { record: { rack: "R12" } },
      tasks: [
        { label: "record", taskName: "Task.Record.Rack" },
        { label: "done", taskName: "Task.noop", waitOn: { record: "succeeded" } },
      ],
    });
    expect(graph).toMatchObject({ status: 200, body: "Graph.Rack.Stack" });
    const run = await call("POST", "/tags/two-cpu/nodes/workflows?name=Graph.Rack.Stack");
    expect(run.status).toBe(202);
    expect(run.body).toHaveLength(1);
    const workflow = (await call("GET", `/workflows/${run.body[0].instanceId}`)).body;
    expect(workflow).toMatchObject({ injectableName: "Graph.Rack.Stack", node: node.id, _status: "succeeded" });
    const record = Object.values(workflow.tasks).find((t: any) => t.label === "record") as { options: { rack: string } };
    expect(record.options.rack).toBe("R12");

    // A graph on a task whose base task does not exist is refused, naming it.
    await call("PUT", "/workflows/tasks", { ...task.body, injectableName: "Task.Orphan", implementsTask: "Task.Base.Nope" });
    const refused = await call("PUT", "/workflows", {
      friendlyName: "x",
      injectableName: "Graph.X",
      tasks: [{ label: "a", taskName: "Task.Orphan" }],
    });
    expect(refused).toMatchObject({ status: 400, body: { message: "Base task definition for Task.Base.Nope should exist" } });
  });

  it("follows docker-machine-rackhd's, FIT's and the bosh CPI's calls on a discovered node", async () => {
    const node = (await call("GET", `/nodes/${MAC}`)).body;
    // docker-machine-rackhd: the SKUs, a SKU's nodes, the node's IPs by its id, its tag.
    const skus = (await call("GET", "/skus")).body;
    expect((await call("GET", `/skus/${skus[0].id}/nodes`)).body.map((n: { id: string }) => n.id)).toContain(node.id);
    const ips = (await call("GET", `/lookups?q=${node.id}`)).body.map((l: { ipAddress?: string }) => l.ipAddress);
    expect(ips.filter(Boolean).length).toBeGreaterThan(0);
    expect((await call("PATCH", `/nodes/${node.id}/tags`, { tags: ["dockermachine"] })).body).toEqual(["dockermachine"]);
    expect((await call("GET", `/nodes/${node.id}`)).body.tags).toEqual(["two-cpu", "dockermachine"]);
    expect((await call("DELETE", `/nodes/${node.id}/tags/dockermachine`)).body).toBe("dockermachine");

    // bosh-rackhd-cpi reads the ohai catalog under /api/common.
    const ohai = await http(server.baseUrl, "GET", `/api/common/nodes/${node.id}/catalogs/ohai`);
    expect(ohai.status).toBe(200);
    expect(ohai.body.source).toBe("ohai");

    // FIT v1.1 (workflowTasks_tests.py): a task on a base task that does not exist is taken, and listed.
    const fitTask = { friendlyName: "fn_1", injectableName: "in_1", implementsTask: "im_1", options: {}, properties: {} };
    expect((await call("PUT", "/workflows/tasks", fitTask)).status).toBe(200);
    expect((await call("GET", "/workflows/tasks/library")).body.map((t: { injectableName: string }) => t.injectableName)).toContain("in_1");
    // FIT's Graph.post.test has an entry without a label: taken, and it runs.
    const post = { friendlyName: "Graph.post.test", injectableName: "Graph.post.test", tasks: [{ taskName: "Task.Trigger.Send.Finish" }] };
    expect(await call("PUT", "/workflows", post)).toMatchObject({ status: 200, body: "Graph.post.test" });
    const run = await call("POST", "/workflows", { name: "Graph.post.test" });
    expect(run).toMatchObject({ status: 201, body: { injectableName: "Graph.post.test", _status: "succeeded" } });
    // FIT rackhd11 (test_rackhd11_api_catalogs.py): the fields of every catalog.
    for (const catalog of (await call("GET", "/catalogs")).body) {
      expect(Object.keys(catalog)).toEqual(expect.arrayContaining(["createdAt", "node", "source", "updatedAt", "data"]));
    }
  });
});
