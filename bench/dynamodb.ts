import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { nodeIdForMac } from "../lib/provisioning/ids";
import { ensureTable } from "../lib/store/dynamodb/table";
import { startDynamoDbLocal } from "../scripts/dynamodbLocal";
import { startS3Local } from "../scripts/s3Local";
import { freePort } from "../tests/support/offlineServer";
import type { CapacityFigure } from "./capacity";
import { alternate, call, type Figure, type Handler, measure } from "./harness";

const run = promisify(execFile);
const JSON_TYPE = { "content-type": "application/json" };
const T = "/todo/api/v1.0/tasks";
const R = "/api/{version}";

/**
 * The main task and node operations through the bundled handlers, in a process whose settings say
 * STORE=dynamodb (bench/dynamodbChild.ts).
 */
export async function measureDynamo(h: Record<string, Handler>, timeMs: number): Promise<Figure[]> {
  for (let i = 1; i <= 10; i += 1)
    await call(h.createTask, { method: "POST", path: T, route: T, headers: JSON_TYPE, body: `{"title":"Task ${i}"}` }, 201)();
  const node = nodeIdForMac("08:00:27:27:eb:12");
  await call(
    h.setNodeObm,
    {
      method: "POST",
      path: `/api/1.1/nodes/${node}/obm`,
      route: `${R}/nodes/{identifier}/obm`,
      pathParameters: { version: "1.1", identifier: node },
      headers: JSON_TYPE,
      body: '{"service":"noop-obm-service","config":{}}',
    },
    201,
  )();
  let created = 0;
  return await measure(
    [
      {
        name: "dynamodb GET /tasks/{id}",
        run: call(h.getTask, { method: "GET", path: `${T}/5`, route: `${T}/{id}`, pathParameters: { id: "5" } }, 200),
      },
      {
        name: "dynamodb POST /tasks",
        run: async () => {
          created = JSON.parse(
            (await call(h.createTask, { method: "POST", path: T, route: T, headers: JSON_TYPE, body: '{"title":"x"}' }, 201)()).body!,
          ).task.id;
        },
        afterEach: () =>
          call(
            h.deleteTask,
            { method: "DELETE", path: `${T}/${created}`, route: `${T}/{id}`, pathParameters: { id: String(created) } },
            200,
          )(),
      },
      {
        name: "dynamodb PUT /tasks/{id}",
        run: alternate(
          ...[true, false].map((done) =>
            call(
              h.updateTask,
              {
                method: "PUT",
                path: `${T}/5`,
                route: `${T}/{id}`,
                pathParameters: { id: "5" },
                headers: JSON_TYPE,
                body: `{"done":${done}}`,
              },
              200,
            ),
          ),
        ),
      },
      { name: "dynamodb GET /tasks (10)", run: call(h.listTasks, { method: "GET", path: T, route: T }, 200) },
      {
        name: "dynamodb GET /nodes/{id}",
        run: call(
          h.getNode,
          {
            method: "GET",
            path: `/api/1.1/nodes/${node}`,
            route: `${R}/nodes/{identifier}`,
            pathParameters: { version: "1.1", identifier: node },
          },
          200,
        ),
      },
      {
        name: "dynamodb GET /nodes/{mac}",
        run: call(
          h.getNode,
          {
            method: "GET",
            path: "/api/1.1/nodes/08:00:27:27:eb:12",
            route: `${R}/nodes/{identifier}`,
            pathParameters: { version: "1.1", identifier: "08:00:27:27:eb:12" },
          },
          200,
        ),
      },
      {
        name: "dynamodb PATCH /nodes/{id}",
        run: alternate(
          ...["available", "reserved"].map((status) =>
            call(
              h.patchNode,
              {
                method: "PATCH",
                path: `/api/1.1/nodes/${node}`,
                route: `${R}/nodes/{identifier}`,
                pathParameters: { version: "1.1", identifier: node },
                headers: JSON_TYPE,
                body: `{"status":"${status}"}`,
              },
              200,
            ),
          ),
        ),
      },
      {
        name: "dynamodb POST /nodes/{id}/workflows (noop graph)",
        run: call(
          h.startWorkflow,
          {
            method: "POST",
            path: `/api/1.1/nodes/${node}/workflows?name=Graph.noop-example`,
            route: `${R}/nodes/{identifier}/workflows`,
            pathParameters: { version: "1.1", identifier: node },
          },
          201,
        ),
      },
    ],
    timeMs,
  );
}

/**
 * Runs the DynamoDB figures in a fresh process started with STORE=dynamodb, as a container would
 * be (settings are read once per container), against DynamoDB Local on loopback (an existing one
 * when TEST_DYNAMODB_ENDPOINT is set, npm test's, else one started here) and a local S3 server.
 */
export async function dynamoFigures(timeMs: number, repeats: number): Promise<{ timing: Figure[]; capacity: CapacityFigure[] }> {
  const own = process.env.TEST_DYNAMODB_ENDPOINT ? undefined : await startDynamoDbLocal(await freePort());
  const endpoint = own?.endpoint ?? process.env.TEST_DYNAMODB_ENDPOINT!;
  const table = `bench-${Date.now()}`;
  // The file routes' bytes: an S3-compatible server (s3rver) of this run's own.
  const s3 = await startS3Local(0);
  try {
    await s3.createBucket(table);
    const admin = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
    await ensureTable(admin, table);
    admin.destroy();
    const { stdout } = await run(
      process.execPath,
      ["--require", "tsx/cjs", join(__dirname, "dynamodbChild.ts"), String(timeMs), String(repeats)],
      {
        cwd: join(__dirname, ".."),
        env: {
          ...process.env,
          STORE: "dynamodb",
          DYNAMODB_ENDPOINT: endpoint,
          DYNAMODB_TABLE: table,
          S3_ENDPOINT: s3.endpoint,
          FILES_BUCKET: table,
        },
        maxBuffer: 1 << 24,
      },
    );
    return JSON.parse(stdout) as { timing: Figure[]; capacity: CapacityFigure[] };
  } finally {
    await own?.stop();
    await s3.stop();
  }
}
