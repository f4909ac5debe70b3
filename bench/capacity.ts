import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Case, Handlers } from "./harness";
import { round } from "./harness";
import { attachMeter, resetMeter } from "./meter";
import { PRICES } from "./prices";
import { warmCases } from "./warm";

/** What one request of a route costs in DynamoDB: calls by operation, capacity units, and money. */
export interface CapacityFigure {
  name: string;
  /** DynamoDB calls by API action, e.g. { GetItem: 2, PutItem: 1 }. */
  calls: Record<string, number>;
  readUnits: number;
  writeUnits: number;
  /** Wall time of the request against DynamoDB Local (ms), the basis of the Lambda figure. */
  durationMs: number;
  /** US dollars per million requests: DynamoDB on-demand, Lambda (1024 MB arm64), HTTP API. */
  dynamodbPerMillion: number;
  lambdaPerMillion: number;
  apiGatewayPerMillion: number;
}

export { PRICES } from "./prices";

const clientOf = (endpoint: string): DynamoDBDocumentClient | undefined =>
  (globalThis as unknown as Record<symbol, DynamoDBDocumentClient | undefined>)[
    Symbol.for(`lambda-tasks-provisioning.dynamodb.client.${endpoint}`)
  ];

/**
 * One realistic request per route (the warm cases, in DynamoDB mode): each case's set-up and
 * clean-up run unmetered, its request runs `repeats` times metered, and the figures are the mean.
 */
export async function capacityFigures(h: Handlers, endpoint: string, repeats: number): Promise<CapacityFigure[]> {
  const cases: Case[] = await warmCases(h);
  const client = clientOf(endpoint);
  if (!client) throw new Error("no DynamoDB client in this process: did the set-up requests run in DynamoDB mode?");
  const meter = attachMeter(client, "benchCapacityMeter");
  meter.on = false;
  const figures: CapacityFigure[] = [];
  for (const c of cases) {
    resetMeter(meter);
    let elapsed = 0;
    for (let i = 0; i < repeats; i += 1) {
      await c.beforeEach?.();
      meter.on = true;
      const started = process.hrtime.bigint();
      await c.run();
      elapsed += Number(process.hrtime.bigint() - started) / 1e6;
      meter.on = false;
      await c.afterEach?.();
    }
    const calls = Object.fromEntries(Object.entries(meter.calls).map(([name, n]) => [name, round(n / repeats, 2)]));
    const readUnits = round(meter.read / repeats, 2);
    const writeUnits = round(meter.write / repeats, 2);
    const durationMs = round(elapsed / repeats, 2);
    figures.push({
      name: c.name,
      calls,
      readUnits,
      writeUnits,
      durationMs,
      dynamodbPerMillion: round((readUnits * PRICES.readUnit + writeUnits * PRICES.writeUnit) * 1e6, 3),
      lambdaPerMillion: round((PRICES.lambdaRequest + (Math.ceil(durationMs) / 1000) * PRICES.memoryGb * PRICES.lambdaGbSecond) * 1e6, 3),
      apiGatewayPerMillion: PRICES.httpApiRequest * 1e6,
    });
  }
  return figures;
}
