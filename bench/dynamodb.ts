import { call, measure, type Figure, type Handler } from "./harness";
import { startDynamoDbLocal } from "../scripts/dynamodbLocal";
import { freePort } from "../tests/support/offlineServer";
import { nodeIdForMac } from "../lib/provisioning/ids";

const JSON_TYPE = { "content-type": "application/json" };
const T = "/todo/api/v1.0/tasks";
const R = "/api/{version}";

/**
 * The main task and node operations through the bundled handlers with STORE=dynamodb, against
 * DynamoDB Local on loopback (an existing one when TEST_DYNAMODB_ENDPOINT is set).
 */
export async function dynamoFigures(h: Record<string, Handler>, timeMs: number): Promise<Figure[]> {
  const own = process.env.TEST_DYNAMODB_ENDPOINT ? undefined : await startDynamoDbLocal(await freePort());
  const endpoint = own?.endpoint ?? process.env.TEST_DYNAMODB_ENDPOINT!;
  const table = `bench-${Date.now()}`;
  const { ensureTable } = await import("../lib/store/dynamodb/table");
  const { DynamoDBClient } = await import("@aws-sdk/client-dynamodb");
  const admin = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  await ensureTable(admin, table);
  admin.destroy();
  const saved = { STORE: process.env.STORE, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT, DYNAMODB_TABLE: process.env.DYNAMODB_TABLE };
  Object.assign(process.env, { STORE: "dynamodb", DYNAMODB_ENDPOINT: endpoint, DYNAMODB_TABLE: table });
  try {
    for (let i = 1; i <= 10; i += 1) await call(h.createTask, { method: "POST", path: T, route: T, headers: JSON_TYPE, body: `{"title":"Task ${i}"}` }, 201)();
    const node = nodeIdForMac("08:00:27:27:eb:12");
    await call(h.setNodeObm, { method: "POST", path: `/api/1.1/nodes/${node}/obm`, route: `${R}/nodes/{identifier}/obm`, pathParameters: { version: "1.1", identifier: node }, headers: JSON_TYPE, body: '{"service":"noop-obm-service","config":{}}' }, 201)();
    let created = 0;
    let toggle = false;
    return await measure([
      { name: "dynamodb GET /tasks/{id}", run: call(h.getTask, { method: "GET", path: `${T}/5`, route: `${T}/{id}`, pathParameters: { id: "5" } }, 200) },
      {
        name: "dynamodb POST /tasks",
        run: async () => { created = JSON.parse((await call(h.createTask, { method: "POST", path: T, route: T, headers: JSON_TYPE, body: '{"title":"x"}' }, 201)()).body!).task.id; },
        afterEach: () => call(h.deleteTask, { method: "DELETE", path: `${T}/${created}`, route: `${T}/{id}`, pathParameters: { id: String(created) } }, 200)(),
      },
      { name: "dynamodb PUT /tasks/{id}", run: () => call(h.updateTask, { method: "PUT", path: `${T}/5`, route: `${T}/{id}`, pathParameters: { id: "5" }, headers: JSON_TYPE, body: `{"done":${(toggle = !toggle)}}` }, 200)() },
      { name: "dynamodb GET /tasks (10)", run: call(h.listTasks, { method: "GET", path: T, route: T }, 200) },
      { name: "dynamodb GET /nodes/{id}", run: call(h.getNode, { method: "GET", path: `/api/1.1/nodes/${node}`, route: `${R}/nodes/{identifier}`, pathParameters: { version: "1.1", identifier: node } }, 200) },
      { name: "dynamodb GET /nodes/{mac}", run: call(h.getNode, { method: "GET", path: "/api/1.1/nodes/08:00:27:27:eb:12", route: `${R}/nodes/{identifier}`, pathParameters: { version: "1.1", identifier: "08:00:27:27:eb:12" } }, 200) },
      { name: "dynamodb PATCH /nodes/{id}", run: () => call(h.patchNode, { method: "PATCH", path: `/api/1.1/nodes/${node}`, route: `${R}/nodes/{identifier}`, pathParameters: { version: "1.1", identifier: node }, headers: JSON_TYPE, body: `{"status":"${(toggle = !toggle)}"}` }, 200)() },
      { name: "dynamodb POST /nodes/{id}/workflows (noop graph)", run: call(h.startWorkflow, { method: "POST", path: `/api/1.1/nodes/${node}/workflows?name=Graph.noop-example`, route: `${R}/nodes/{identifier}/workflows`, pathParameters: { version: "1.1", identifier: node } }, 201) },
    ], timeMs);
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await own?.stop();
  }
}
