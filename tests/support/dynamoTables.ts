import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { documentClient } from "../../lib/store/dynamodb/client";
import { ensureTable } from "../../lib/store/dynamodb/table";

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
