import { apiContextFor } from "../lib/provisioning/apiContext";
import { graphDefinition } from "../lib/provisioning/graphs/graphLibrary";
import { buildNode, parseNewNode } from "../lib/provisioning/nodes/node";
import type { ProvisioningStores } from "../lib/provisioning/ports";
import { buildWorkflow } from "../lib/provisioning/workflowEngine/buildWorkflow";
import { cancelWorkflow } from "../lib/provisioning/workflowEngine/progress";
import { processSingleton, resetProcessSingleton } from "../lib/store/processSingleton";
import type { TaskStore } from "../lib/tasks/taskStore";
import { alternate, call, type Figure, type Handler, measure } from "./harness";

const JSON_TYPE = { "content-type": "application/json" };
const T = "/todo/api/v1.0/tasks";
const R = "/api/{version}";

export interface GrowthRow {
  operation: string;
  bySize: Record<string, Figure>;
  /** mean latency at the largest size / at the smallest. */
  ratio: number;
}

const mac = (n: number) => `52:54:${[24, 16, 8, 0].map((shift) => ((n >> shift) & 0xff).toString(16).padStart(2, "0")).join(":")}`;
const hex24 = (n: number) => n.toString(16).padStart(24, "0");

/** The container's stores, as the bundles made them (process singletons on globalThis). */
const taskStore = () =>
  processSingleton<TaskStore>("taskStore.memory", () => {
    throw new Error("no task store yet");
  });
const provisioningStores = () =>
  processSingleton<Promise<ProvisioningStores>>("provisioningStores.memory", () => {
    throw new Error("no stores yet");
  });

function resetStores(): void {
  resetProcessSingleton("taskStore.memory");
  resetProcessSingleton("provisioningStores.memory");
}

/**
 * How a request's cost grows with the data held: task get/put/delete/create and list at each size,
 * node lookup by id and by MAC, and a workflow start on a node with a long history.
 */
export async function growth(h: Record<string, Handler>, sizes: number[], timeMs: number): Promise<GrowthRow[]> {
  const rows = new Map<string, Record<string, Figure>>();
  const add = (figures: Figure[], size: number) => {
    for (const figure of figures) rows.set(figure.name, { ...(rows.get(figure.name) ?? {}), [String(size)]: figure });
  };

  for (const size of sizes) {
    resetStores();
    await call(h.listTasks, { method: "GET", path: T, route: T }, 200)(); // the bundle creates the store
    const tasks = taskStore();
    for (let i = 1; i <= size; i += 1) await tasks.create({ title: `Task ${i}`, description: "Milk, Cheese, Pizza, Fruit" });
    const middle = String(Math.ceil(size / 2));
    let temp = 0;
    add(
      await measure(
        [
          {
            name: "task GET /tasks/{id}",
            run: call(h.getTask, { method: "GET", path: `${T}/${middle}`, route: `${T}/{id}`, pathParameters: { id: middle } }, 200),
          },
          {
            name: "task PUT /tasks/{id}",
            run: alternate(
              ...[true, false].map((done) =>
                call(
                  h.updateTask,
                  {
                    method: "PUT",
                    path: `${T}/${middle}`,
                    route: `${T}/{id}`,
                    pathParameters: { id: middle },
                    headers: JSON_TYPE,
                    body: `{"done":${done}}`,
                  },
                  200,
                ),
              ),
            ),
          },
          {
            name: "task POST /tasks",
            run: async () => {
              temp = JSON.parse(
                (await call(h.createTask, { method: "POST", path: T, route: T, headers: JSON_TYPE, body: '{"title":"x"}' }, 201)()).body!,
              ).task.id;
            },
            afterEach: async () => {
              await tasks.delete(temp);
            },
          },
          {
            name: "task DELETE /tasks/{id}",
            beforeEach: async () => {
              temp = (await tasks.create({ title: "x", description: "" })).id;
            },
            run: () =>
              call(
                h.deleteTask,
                { method: "DELETE", path: `${T}/${temp}`, route: `${T}/{id}`, pathParameters: { id: String(temp) } },
                200,
              )(),
          },
          // Unpaged, 10⁵ tasks are more than one answer carries (400): the first page of 100.
          { name: "task list GET /tasks?limit=100", run: call(h.listTasks, { method: "GET", path: `${T}?limit=100`, route: T }, 200) },
        ],
        timeMs,
      ),
      size,
    );

    await call(h.listNodes, { method: "GET", path: "/api/1.1/nodes", route: `${R}/nodes`, pathParameters: { version: "1.1" } }, 200)();
    const stores = await provisioningStores();
    const start = new Date("2026-01-01T00:00:00Z");
    for (let i = 1; i <= size; i += 1)
      await stores.nodes.create(buildNode(parseNewNode({ name: `node-${i}`, identifiers: [mac(i)] }), hex24(i), start));
    const target = Math.ceil(size / 2);
    add(
      await measure(
        [
          {
            name: "node GET /nodes/{id}",
            run: call(
              h.getNode,
              {
                method: "GET",
                path: `/api/1.1/nodes/${hex24(target)}`,
                route: `${R}/nodes/{identifier}`,
                pathParameters: { version: "1.1", identifier: hex24(target) },
              },
              200,
            ),
          },
          {
            name: "node GET /nodes/{mac}",
            run: call(
              h.getNode,
              {
                method: "GET",
                path: `/api/1.1/nodes/${mac(target)}`,
                route: `${R}/nodes/{identifier}`,
                pathParameters: { version: "1.1", identifier: mac(target) },
              },
              200,
            ),
          },
        ],
        timeMs,
      ),
      size,
    );

    // A node with `size / 10` past workflows (finished), then a start on it.
    const history = Math.max(1, Math.floor(size / 10));
    const nodeId = hex24(target);
    await stores.nodes.update(nodeId, (node) => ({ ...node, obmSettings: [{ service: "noop-obm-service", config: {} }] }));
    const api = apiContextFor("http://bench");
    for (let i = 0; i < history; i += 1) {
      await stores.workflows.create(cancelWorkflow(buildWorkflow(graphDefinition("Graph.Reboot.Node")!, {}, nodeId, api, start), start));
    }
    add(
      await measure(
        [
          {
            name: `workflow start (history of size/10)`,
            run: call(
              h.startWorkflow,
              {
                method: "POST",
                path: `/api/1.1/nodes/${nodeId}/workflows?name=Graph.noop-example`,
                route: `${R}/nodes/{identifier}/workflows`,
                pathParameters: { version: "1.1", identifier: nodeId },
              },
              201,
            ),
          },
        ],
        timeMs,
      ),
      size,
    );
  }
  resetStores();

  return [...rows.entries()].map(([operation, bySize]) => {
    const smallest = bySize[String(sizes[0])];
    const largest = bySize[String(sizes[sizes.length - 1])];
    return { operation, bySize, ratio: Math.round((largest.meanUs / smallest.meanUs) * 100) / 100 };
  });
}
