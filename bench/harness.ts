import type { Context } from "aws-lambda";
import { Bench } from "tinybench";
import type { RouteFunction } from "../lib/http/routes";
import { apiGatewayEvent, type EventInput, lambdaContext } from "../tests/support/apiGatewayEvent";

declare const routeFunction: unique symbol;
type Answer = { statusCode: number; body?: string };

/** A bundled handler; `F` (a type only) is the function it is, so a case knows which route it measures. */
export type Handler<F extends string = string> = ((event: unknown, context: Context) => Promise<Answer>) & { readonly [routeFunction]?: F };

/** Every function's bundled handler, by function name. */
export type Handlers = { [F in RouteFunction]: Handler<F> };

export interface Figure {
  name: string;
  opsPerSec: number;
  meanUs: number;
  p50Us: number;
  p99Us: number;
  samples: number;
}

export interface Case<F extends string = string> {
  name: string;
  /** Runs once per measured call; its work is what is measured. */
  run: Call<F> | ((() => Promise<unknown>) & { prepare?: () => void });
  /** Unmeasured work before / after each call (keeps the store the same size). */
  beforeEach?: () => Promise<unknown> | undefined;
  afterEach?: () => Promise<unknown> | undefined;
}

export const context: Context = lambdaContext("bench");

/** An API Gateway v2 event for a route, as in the handler tests. */
export function event(input: EventInput & { route: string }) {
  return apiGatewayEvent(input);
}

export type Call<F extends string = string> = (() => Promise<Answer>) & { prepare?: () => void; readonly [routeFunction]?: F };

/**
 * Invokes a handler and fails the benchmark loudly if it does not answer as expected. `prepare`
 * builds the next event ahead of time (measure() calls it before each timed run, so building the
 * event is not measured; handlers may change the event they get, so each run gets a new one).
 */
export function call<F extends string>(handler: Handler<F>, input: EventInput & { route: string }, expected: number): Call<F> {
  let next: ReturnType<typeof event> | undefined;
  const run: Call<F> = async () => {
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
export function then<F extends string>(first: Call<F>, after: (answer: Answer) => void): Call<F> {
  const run: Call<F> = async () => {
    const answer = await first();
    after(answer);
    return answer;
  };
  run.prepare = first.prepare;
  return run;
}

/** A run that does more than one call's work (it keeps an id for clean-up), marked with the function it measures. */
export const measuring = <F extends string>(_measured: Handler<F>, run: () => Promise<Answer>): Call<F> => run;

/** The call a case's beforeEach builds (it needs an id made there), prepared as that call is. */
export const deferred = <F extends string>(current: () => Call<F>): Call<F> =>
  Object.assign(() => current()(), { prepare: () => current().prepare?.() });

/** Alternates between calls (e.g. done: true, then false), each prepared outside the timed run. */
export function alternate<F extends string>(...calls: Call<F>[]): Call<F> {
  let turn = 0;
  const run: Call<F> = () => calls[turn++ % calls.length]();
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
