/**
 * npm run migrate — brings a table written by an older version up to this one's keys (issue 28:
 * the node and workflow lists' index, GSI2). Deployed, CloudFormation adds the index on update;
 * then run this once against the stage's table (AWS credentials from the environment):
 *
 *   DYNAMODB_TABLE=lambda-tasks-provisioning-prod npm run migrate
 *
 * Against DynamoDB Local: DYNAMODB_ENDPOINT=http://localhost:8000 DYNAMODB_TABLE=… npm run migrate
 * (`npm run start:dynamodb` runs it itself on a kept table). Safe to run again, and beside the service.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { documentClient } from "../lib/store/dynamodb/client";
import { migrate } from "../lib/store/dynamodb/migrations";
import { ensureTable } from "../lib/store/dynamodb/table";

async function main(): Promise<void> {
  const table = process.env.DYNAMODB_TABLE;
  if (!table) throw new Error("Set DYNAMODB_TABLE to the table to migrate (and DYNAMODB_ENDPOINT for DynamoDB Local)");
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (endpoint) {
    // DynamoDB Local: add the index here (deployed, the stack's update adds it).
    const admin = new DynamoDBClient({
      endpoint,
      region: process.env.AWS_REGION ?? "us-east-1",
      ...(!process.env.AWS_ACCESS_KEY_ID && { credentials: { accessKeyId: "local", secretAccessKey: "local" } }),
    });
    await ensureTable(admin, table);
    admin.destroy();
  }
  const report = await migrate(documentClient({ dynamodbEndpoint: endpoint, functionTimeoutSeconds: 60 }), table);
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
