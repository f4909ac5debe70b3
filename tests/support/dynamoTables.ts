import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import { documentClient } from "../../lib/store/dynamodb/client";
import { ensureTable } from "../../lib/store/dynamodb/table";
import { s3Client } from "../../lib/store/s3/client";
import { S3FileBlobs } from "../../lib/store/s3/fileBlobs";

/** The DynamoDB Local the run started (see dynamoGlobalSetup.js). */
export function testEndpoint(): string {
  const endpoint = process.env.TEST_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error("TEST_DYNAMODB_ENDPOINT is not set: run through jest (globalSetup starts DynamoDB Local)");
  return endpoint;
}

let counter = 0;

/** A new, empty table in the local engine. */
export async function freshTable(prefix = "t"): Promise<string> {
  counter += 1;
  const name = `${prefix}-${process.pid}-${Date.now()}-${counter}`;
  const client = new DynamoDBClient({
    endpoint: testEndpoint(),
    region: "us-east-1",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  try {
    await ensureTable(client, name);
  } finally {
    client.destroy();
  }
  return name;
}

export const testDocumentClient = () => documentClient({ dynamodbEndpoint: testEndpoint(), functionTimeoutSeconds: 60 });

/** The local S3 server the run started beside DynamoDB Local. */
export function testS3Endpoint(): string {
  const endpoint = process.env.TEST_S3_ENDPOINT;
  if (!endpoint) throw new Error("TEST_S3_ENDPOINT is not set: run through jest (globalSetup starts the local S3 server)");
  return endpoint;
}

/** A new, empty bucket in the local S3 server. */
export async function freshBucket(prefix = "files"): Promise<string> {
  counter += 1;
  const name = `${prefix}-${process.pid}-${Date.now()}-${counter}`.toLowerCase();
  await s3Client({ s3Endpoint: testS3Endpoint(), functionTimeoutSeconds: 60 }).send(new CreateBucketCommand({ Bucket: name }));
  return name;
}

/** The S3 adapter of the file store's bytes, on a fresh bucket of the local S3 server. */
export const testFileBlobs = async () =>
  new S3FileBlobs(s3Client({ s3Endpoint: testS3Endpoint(), functionTimeoutSeconds: 60 }), await freshBucket());
