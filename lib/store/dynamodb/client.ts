import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Settings } from "../../config/settings";
import { processSingleton } from "../processSingleton";
import { meterCapacity } from "./capacity";
import { answerUnavailableAs503 } from "./unavailable";

/** How long the SDK may spend on one call, all attempts included, within the function's time-out. */
export interface StoreTimeouts {
  maxAttempts: number;
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
}

/**
 * Time-outs that always end well inside the function's (FUNCTION_TIMEOUT_SECONDS, serverless.yml's
 * provider.timeout): a request's store calls may use half of it, over 3 attempts, so a stalled
 * store answers 503 long before Lambda cuts the function off.
 */
export function storeTimeouts(functionTimeoutSeconds: number): StoreTimeouts {
  const maxAttempts = 3;
  const perAttempt = Math.max(200, Math.floor((functionTimeoutSeconds * 1000) / 2 / maxAttempts));
  return { maxAttempts, connectionTimeoutMs: Math.min(1000, perAttempt), requestTimeoutMs: perAttempt };
}

/**
 * What every AWS SDK client of a store gets (DynamoDB, S3): the region of the Lambda environment,
 * and retries and time-outs that end within the function's time-out.
 */
export function boundedClientOptions(functionTimeoutSeconds: number) {
  const timeouts = storeTimeouts(functionTimeoutSeconds);
  return {
    region: process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "us-east-1",
    maxAttempts: timeouts.maxAttempts,
    requestHandler: {
      connectionTimeout: timeouts.connectionTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      // Without it the SDK only warns and waits on.
      throwOnRequestTimeout: true,
    },
  };
}

/**
 * One DynamoDB document client per container and table. On AWS the SDK takes region and
 * credentials from the Lambda environment; against a local engine (DYNAMODB_ENDPOINT) any
 * credentials do, so placeholders are used when none are set. A failure worth retrying
 * (throttling, an unreachable store, a time-out) leaves the client as an UnavailableError.
 */
export function documentClient(config: Pick<Settings, "dynamodbEndpoint" | "functionTimeoutSeconds">): DynamoDBDocumentClient {
  return processSingleton(`dynamodb.client.${config.dynamodbEndpoint ?? "aws"}`, () => {
    const local = config.dynamodbEndpoint !== undefined;
    const client = new DynamoDBClient({
      ...boundedClientOptions(config.functionTimeoutSeconds),
      endpoint: config.dynamodbEndpoint,
      ...(local && !process.env.AWS_ACCESS_KEY_ID && { credentials: { accessKeyId: "local", secretAccessKey: "local" } }),
    });
    answerUnavailableAs503(client);
    const documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
    meterCapacity(documents);
    return documents;
  });
}
