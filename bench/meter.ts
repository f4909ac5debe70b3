import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { unitsOf } from "../lib/store/dynamodb/capacity";

/** What a metered client's calls consumed since it was last reset, while `on`. */
export interface Meter {
  on: boolean;
  calls: Record<string, number>;
  read: number;
  write: number;
}

/**
 * Meters `client`: while the meter is on, each call asks for its consumed capacity
 * (ReturnConsumedCapacity: TOTAL; DynamoDB Local computes units as DynamoDB does), and the calls
 * are counted by action with their units. The section benches meter a client of their own; the
 * cost bench (bench/capacity.ts) the bundles' shared one, on around each case.
 */
export function attachMeter(client: DynamoDBDocumentClient, name = "benchMeter"): Meter {
  const meter: Meter = { on: true, calls: {}, read: 0, write: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!meter.on) return next(args);
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = "TOTAL";
      const answer = await next(args);
      const action = (context.commandName ?? "unknown").replace(/Command$/, "");
      meter.calls[action] = (meter.calls[action] ?? 0) + 1;
      const units = unitsOf(action, answer.output);
      meter.read += units.read;
      meter.write += units.write;
      return answer;
    },
    { step: "initialize", name },
  );
  return meter;
}

/** Counts from nothing again. */
export function resetMeter(meter: Meter): void {
  meter.calls = {};
  meter.read = 0;
  meter.write = 0;
}

/** A document client for DynamoDB Local, metered (attachMeter). */
export function meteredClient(endpoint: string): { client: DynamoDBDocumentClient; meter: Meter; reset: () => void } {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  const meter = attachMeter(client);
  return { client, meter, reset: () => resetMeter(meter) };
}

/** How many calls a meter counted, all actions together. */
export const callCount = (meter: Meter): number => Object.values(meter.calls).reduce((sum, count) => sum + count, 0);
