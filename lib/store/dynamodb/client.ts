import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Settings } from "../../config/settings";
import { processSingleton } from "../processSingleton";
import { meterCapacity } from "./capacity";
import { ensureTable } from "./table";
import { answerMissingTableAs503, answerUnavailableAs503 } from "./unavailable";

/** Makes the table again on a client of its own (this one's middleware would answer its own DescribeTable's "missing" with itself). */
async function remakeTable(endpoint: string, table: string): Promise<void> {
  const admin = new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION ?? "us-east-1",
    credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? "local", secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? "local" },
  });
  try {
    await ensureTable(admin, table);
  } finally {
    admin.destroy();
  }
}

/** `make` for a key at most once at a time: requests that find the table missing together make it once. */
function onceAtATime(make: (key: string) => Promise<void>): (key: string) => Promise<void> {
  const running = new Map<string, Promise<void>>();
  return (key) => {
    const made = running.get(key) ?? make(key).finally(() => running.delete(key));
    running.set(key, made);
    return made;
  };
}

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
    // A local engine that lost its table (DynamoDB Local restarted in memory) gets it made again as
    // the request is answered 503: the client's retry finds it. Never on AWS: the table is the
    // stack's, and no function may create one.
    answerUnavailableAs503(client);
    const endpoint = config.dynamodbEndpoint;
    answerMissingTableAs503(client, endpoint ? onceAtATime((table) => remakeTable(endpoint, table)) : undefined);
    const documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
    meterCapacity(documents);
    return documents;
  });
}
