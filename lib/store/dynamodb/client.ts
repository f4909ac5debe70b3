import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Settings } from "../../config/settings";
import { processSingleton } from "../processSingleton";

/**
 * One DynamoDB document client per container and table. On AWS the SDK takes region and
 * credentials from the Lambda environment; against a local engine (DYNAMODB_ENDPOINT) any
 * credentials do, so placeholders are used when none are set.
 */
export function documentClient(config: Pick<Settings, "dynamodbEndpoint">): DynamoDBDocumentClient {
  return processSingleton(`dynamodb.client.${config.dynamodbEndpoint ?? "aws"}`, () => {
    const local = config.dynamodbEndpoint !== undefined;
    const client = new DynamoDBClient({
      endpoint: config.dynamodbEndpoint,
      region: process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "us-east-1",
      maxAttempts: 4,
      ...(local && !process.env.AWS_ACCESS_KEY_ID && { credentials: { accessKeyId: "local", secretAccessKey: "local" } }),
    });
    return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  });
}
