import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { unitsOf } from "../lib/store/dynamodb/capacity";

/** What a metered client's calls consumed since it was last reset. */
export interface Meter {
  calls: Record<string, number>;
  read: number;
  write: number;
}

/**
 * A document client for DynamoDB Local that asks each call for its consumed capacity
 * (ReturnConsumedCapacity: TOTAL; DynamoDB Local computes units as DynamoDB does) and counts the
 * calls by action and their units: the section benches' own reading (bench/capacity.ts meters the
 * bundles' shared client the same way).
 */
export function meteredClient(endpoint: string): { client: DynamoDBDocumentClient; meter: Meter; reset: () => void } {
  const meter: Meter = { calls: {}, read: 0, write: 0 };
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = "TOTAL";
      const answer = await next(args);
      const name = (context.commandName ?? "unknown").replace(/Command$/, "");
      meter.calls[name] = (meter.calls[name] ?? 0) + 1;
      const units = unitsOf(name, answer.output);
      meter.read += units.read;
      meter.write += units.write;
      return answer;
    },
    { step: "initialize", name: "benchMeter" },
  );
  const reset = () => {
    meter.calls = {};
    meter.read = 0;
    meter.write = 0;
  };
  return { client, meter, reset };
}

/** How many calls a meter counted, all actions together. */
export const callCount = (meter: Meter): number => Object.values(meter.calls).reduce((sum, count) => sum + count, 0);
