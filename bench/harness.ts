import type { Context } from "aws-lambda";
import { Bench } from "tinybench";
import { apiGatewayEvent, type EventInput, lambdaContext } from "../tests/support/apiGatewayEvent";

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
  run: (() => Promise<unknown>) & { prepare?: () => void };
  /** Unmeasured work before / after each call (keeps the store the same size). */
  beforeEach?: () => Promise<unknown> | undefined;
  afterEach?: () => Promise<unknown> | undefined;
}

export const context: Context = lambdaContext("bench");

/** An API Gateway v2 event for a route, as in the handler tests. */
export function event(input: EventInput & { route: string }) {
  return apiGatewayEvent(input);
}

export type Call = (() => Promise<{ statusCode: number; body?: string }>) & { prepare?: () => void };

/**
 * Invokes a handler and fails the benchmark loudly if it does not answer as expected. `prepare`
 * builds the next event ahead of time (measure() calls it before each timed run, so building the
 * event is not measured; handlers may change the event they get, so each run gets a new one).
 */
export function call(handler: Handler, input: EventInput & { route: string }, expected: number): Call {
  let next: ReturnType<typeof event> | undefined;
  const run: Call = async () => {
    const current = next ?? event(input);
    next = undefined;
    const answer = await handler(current, context);
    if (answer.statusCode !== expected)
      throw new Error(`${input.method} ${input.path} answered ${answer.statusCode}, expected ${expected}: ${answer.body}`);
    return answer;
  };
  run.prepare = () => {
    next = event(input);
  };
  return run;
}

/** A call followed by `after` on its answer (in the timed run: keep it trivial), prepared as the call is. */
export function then(first: Call, after: (answer: { statusCode: number; body?: string }) => void): Call {
  const run: Call = async () => {
    const answer = await first();
    after(answer);
    return answer;
  };
  run.prepare = first.prepare;
  return run;
}

/** Alternates between calls (e.g. done: true, then false), each prepared outside the timed run. */
export function alternate(...calls: Call[]): Call {
  let turn = 0;
  const run: Call = () => calls[turn++ % calls.length]();
  run.prepare = () => calls[turn % calls.length].prepare?.();
  return run;
}

/**
 * Measures each case with tinybench (warm-up, then timed runs): ops/s, mean, p50, p99 in
 * microseconds. Cases run one after the other, each with its own warm-up, so a write case's
 * warm-up cannot grow the data a read case before it is measured on.
 */
export async function measure(cases: Case[], timeMs: number): Promise<Figure[]> {
  const hook = (fn?: () => Promise<unknown> | undefined) => fn && (async () => void (await fn()));
  const figures: Figure[] = [];
  for (const c of cases) {
    const bench = new Bench({ time: timeMs, warmupTime: Math.min(200, timeMs / 2), warmupIterations: 20, iterations: 20 });
    const before = async () => {
      await c.beforeEach?.();
      c.run.prepare?.();
    };
    bench.add(c.name, c.run, { beforeEach: before, afterEach: hook(c.afterEach) });
    await bench.run();
    const task = bench.tasks[0];
    const result = task.result as { state?: string; error?: Error; latency?: { mean: number; p50: number; p99: number } };
    if (result.state === "errored" || result.error) throw result.error ?? new Error(`${task.name} failed`);
    const latency = result.latency!;
    figures.push({
      name: task.name,
      opsPerSec: Math.round(1000 / latency.mean),
      meanUs: round(latency.mean * 1000),
      p50Us: round(latency.p50 * 1000),
      p99Us: round(latency.p99 * 1000),
      samples: task.runs,
    });
  }
  return figures;
}

export const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;
