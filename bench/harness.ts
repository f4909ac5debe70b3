import { Bench } from "tinybench";
import type { Context } from "aws-lambda";
import { apiGatewayEvent, lambdaContext, type EventInput } from "../tests/support/apiGatewayEvent";

export type Handler = (event: unknown, context: Context) => Promise<{ statusCode: number; body?: string }>;

export interface Figure {
  name: string;
  opsPerSec: number;
  meanUs: number;
  p50Us: number;
  p99Us: number;
  samples: number;
}

export interface Case {
  name: string;
  /** Runs once per measured call; its work is what is measured. */
  run: () => Promise<unknown>;
  /** Unmeasured work before / after each call (keeps the store the same size). */
  beforeEach?: () => Promise<unknown> | void;
  afterEach?: () => Promise<unknown> | void;
}

export const context: Context = lambdaContext("bench");

/** An API Gateway v2 event for a route, as in the handler tests. */
export function event(input: EventInput & { route: string }) {
  return apiGatewayEvent(input);
}

/** Invokes a handler and fails the benchmark loudly if it does not answer as expected. */
export function call(handler: Handler, input: EventInput & { route: string }, expected: number): () => Promise<{ statusCode: number; body?: string }> {
  return async () => {
    const answer = await handler(event(input), context);
    if (answer.statusCode !== expected) throw new Error(`${input.method} ${input.path} answered ${answer.statusCode}, expected ${expected}: ${answer.body}`);
    return answer;
  };
}

/** Measures every case with tinybench: ops/s, mean, p50, p99 (in microseconds). */
export async function measure(cases: Case[], timeMs: number): Promise<Figure[]> {
  const bench = new Bench({ time: timeMs, warmupTime: Math.min(200, timeMs / 2), warmupIterations: 20, iterations: 20 });
  const hook = (fn?: () => Promise<unknown> | void) => fn && (async () => void (await fn()));
  for (const c of cases) bench.add(c.name, c.run, { beforeEach: hook(c.beforeEach), afterEach: hook(c.afterEach) });
  await bench.run();
  return bench.tasks.map((task) => {
    const result = task.result as { state?: string; error?: Error; latency?: { mean: number; p50: number; p99: number; samplesCount?: number }; throughput?: { mean: number }; runs?: number };
    if (result.state === "errored" || result.error) throw result.error ?? new Error(`${task.name} failed`);
    const latency = result.latency!;
    return {
      name: task.name,
      opsPerSec: Math.round(1000 / latency.mean),
      meanUs: round(latency.mean * 1000),
      p50Us: round(latency.p50 * 1000),
      p99Us: round(latency.p99 * 1000),
      samples: task.runs,
    };
  });
}

export const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;
