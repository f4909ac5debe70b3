/**
 * Starts s3rver (an S3-compatible server from npm, in this process) on a port, for the file
 * store's bytes when the service runs on DynamoDB Local: `npm run start:dynamodb` and the test
 * tiers that start DynamoDB Local. It checks request signatures (presigned URLs included) with its
 * default keys, which the service's S3 client uses against a local endpoint.
 */
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
