/**
 * Starts s3rver (an S3-compatible server from npm, in this process) on a port, for the file
 * store's bytes when the service runs on DynamoDB Local: `npm run start:dynamodb` and the test
 * tiers that start DynamoDB Local. It checks request signatures (presigned URLs included) with its
 * default keys, which the service's S3 client uses against a local endpoint.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { s3Client } from "../lib/store/s3/client";

export interface LocalS3 {
  endpoint: string;
  createBucket: (name: string) => Promise<void>;
  stop: () => Promise<void>;
}

/** `directory` keeps the objects; without it they go to a temporary folder removed on stop. */
export async function startS3Local(port: number, directory?: string): Promise<LocalS3> {
  const folder = directory ?? mkdtempSync(join(tmpdir(), "s3rver-"));
  const server = new S3rver({ port, address: "127.0.0.1", silent: true, directory: folder });
  const { port: bound } = await server.run();
  const endpoint = `http://127.0.0.1:${bound}`;
  return {
    endpoint,
    createBucket: async (name) => {
      await s3Client({ s3Endpoint: endpoint, functionTimeoutSeconds: 60 }).send(new CreateBucketCommand({ Bucket: name }));
    },
    stop: async () => {
      await server.close();
      if (!directory) rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * The same server in a process of its own. The test tiers use it: in jest's main process s3rver
 * answered late while jest collected coverage and ran eight projects, and the service's S3 client
 * (a request timeout of a third of half the function's timeout) turned that into 503s.
 */
export async function startS3LocalProcess(port: number): Promise<LocalS3> {
  const child = spawn(process.execPath, ["--require", "tsx/cjs", __filename, "--serve", String(port)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const endpoint = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /^ready (\S+)$/m.exec(output);
      if (ready) resolve(ready[1]);
    });
    child.once("exit", (code) => reject(new Error(`s3rver exited (${code}) before it listened: ${output}`)));
  });
  return {
    endpoint,
    createBucket: async (name) => {
      await s3Client({ s3Endpoint: endpoint, functionTimeoutSeconds: 60 }).send(new CreateBucketCommand({ Bucket: name }));
    },
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

if (require.main === module && process.argv[2] === "--serve") {
  startS3Local(Number(process.argv[3] ?? 0)).then((s3) => {
    process.stdout.write(`ready ${s3.endpoint}\n`);
    const stop = () => void s3.stop().then(() => process.exit(0));
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
}
