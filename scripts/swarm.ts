import { writeFileSync } from "node:fs";
import { percentile } from "../bench/percentile";
import { simulateBoot } from "./nodeSimulator";

/**
 * `npm run swarm -- --machines N --ramp S --fail P [--api URL] [--concurrency C] [--json FILE]`
 * (issue 28): N machines, each a small state machine speaking only HTTP, through their whole life
 * against a running service: a first PXE boot and discovery (the microkernel posts its catalogs,
 * the SKU rules run), an OBM setting, an install (Graph.InstallCentOS: the install boot fetches
 * its kickstart and calls back), and the workflow's end. Machines start spread over S seconds; at
 * most C are in flight at once. A fraction P is made to fail on purpose (the installer never calls
 * back, and its task's time-out is 3 s): those must end `timeout` with a reason, not with an error.
 *
 * It reports requests per machine, latency percentiles per route, and every answer >= 500; its last
 * line reads `N machines, N installed, N failed, N answers >= 500` for scripts.
 */

interface Options {
  machines: number;
  rampSeconds: number;
  fail: number;
  api: string;
  concurrency: number;
  json?: string;
  /** The service's log so far (its request lines carry each request's DynamoDB calls and units), when it runs here. */
  serverLog?: () => string;
}

interface Sample {
  route: string;
  ms: number;
  status: number;
}

export interface SwarmReport {
  machines: number;
  installed: number;
  failed: number;
  failedOnPurpose: number;
  failureReasons: Record<string, number>;
  errors: string[];
  answers5xx: number;
  /** From the service's request log lines (STORE=dynamodb, LOG_REQUESTS=on), when it was given. */
  dynamodb?: StoreCost & {
    perInstall: StoreCost;
    /** Per route, per request: what each call of it costs the table, heaviest writers first. */
    perRequest: ({ route: string; requests: number } & StoreCost)[];
  };
  requests: number;
  requestsPerMachine: number;
  seconds: number;
  routes: { route: string; count: number; p50Ms: number; p95Ms: number; p99Ms: number; maxMs: number; over499: number }[];
}

function parseArgs(argv: string[]): Options {
  const value = (name: string, fallback: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1] : fallback;
  };
  const number = (name: string, fallback: number, ok: (n: number) => boolean) => {
    const n = Number(value(name, String(fallback)));
    if (!Number.isFinite(n) || !ok(n)) throw new Error(`--${name} must be ${name === "fail" ? "between 0 and 1" : "a positive number"}`);
    return n;
  };
  return {
    machines: number("machines", 10, (n) => Number.isInteger(n) && n > 0),
    rampSeconds: number("ramp", 0, (n) => n >= 0),
    fail: number("fail", 0, (n) => n >= 0 && n <= 1),
    api: value("api", `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, ""),
    concurrency: number("concurrency", 32, (n) => Number.isInteger(n) && n > 0),
    json: argv.includes("--json") ? value("json", "swarm-results.json") : undefined,
  };
}

/** A URL's route: ids, MACs, tokens and query values replaced, so that calls group by what they ask. */
export function routeOf(method: string, url: string): string {
  const { pathname, searchParams } = new URL(url);
  const path = pathname
    .replace(/\/[0-9a-f]{24}(?=\/|$)/g, "/{id}")
    .replace(/\/([0-9a-f]{2}[:-]){5}[0-9a-f]{2}(?=\/|$)/gi, "/{mac}")
    .replace(/\/[0-9a-f-]{36}(?=\/|$)/g, "/{uuid}")
    .replace(/\/api\/(1\.1|current|common|2\.0)\//, "/api/{version}/");
  const keys = [...new Set(searchParams.keys())].sort();
  return `${method} ${path}${keys.length > 0 ? `?${keys.join("&")}` : ""}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const macOf = (i: number) =>
  `52:54:${[(i >> 24) & 255, (i >> 16) & 255, (i >> 8) & 255, i & 255].map((b) => b.toString(16).padStart(2, "0")).join(":")}`;

/** Every request the swarm makes goes through fetch: it is counted, timed, and an answer >= 500 noted. */
function instrument(samples: Sample[], errors: string[]): () => void {
  const original = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? "GET";
    const started = performance.now();
    const response = await original(input, init);
    const ms = performance.now() - started;
    samples.push({ route: routeOf(method, url), ms, status: response.status });
    if (response.status >= 500) errors.push(`${method} ${url} answered ${response.status}`);
    return response;
  };
  return () => {
    globalThis.fetch = original;
  };
}

async function api(options: Options, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${options.api}/api/1.1${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text && (response.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text };
}

/** Polls until the node has no running workflow (204), and answers its latest workflow. */
async function settled(options: Options, node: string, timeoutMs: number): Promise<{ _status: string; failure?: { reason: string } }> {
  const end = Date.now() + timeoutMs;
  for (let wait = 250; Date.now() < end; wait = Math.min(2000, wait * 1.5)) {
    const active = await api(options, "GET", `/nodes/${node}/workflows/active`);
    if (active.status === 204) break;
    await sleep(wait);
  }
  const all = await api(options, "GET", `/nodes/${node}/workflows`);
  return (all.body as { _status: string; failure?: { reason: string } }[]).at(-1)!;
}

type Outcome = { kind: "installed" } | { kind: "failed"; reason: string; onPurpose: boolean } | { kind: "error"; error: string };

/** One machine's life: discovered, given an OBM setting, installed (or made to fail), settled. */
async function machine(options: Options, i: number, failing: boolean): Promise<Outcome> {
  const mac = macOf(i);
  try {
    const first = await simulateBoot({ server: options.api, macs: [mac], pollMs: 250 });
    if (first.outcome !== "discovered") return { kind: "error", error: `${mac}: first boot ended ${first.outcome}` };
    const discovery = await settled(options, mac, 180_000);
    if (discovery._status !== "succeeded") return { kind: "error", error: `${mac}: discovery ended ${discovery._status}` };
    const node = (await api(options, "GET", `/nodes/${mac}`)).body.id as string;
    const obm = await api(options, "POST", `/nodes/${node}/obm`, { service: "noop-obm-service", config: {} });
    if (obm.status >= 300) return { kind: "error", error: `${mac}: POST /obm answered ${obm.status}` };
    const started = await api(options, "POST", `/nodes/${node}/workflows`, {
      name: "Graph.InstallCentOS",
      options: {
        defaults: { obmServiceName: "noop-obm-service" },
        "install-os": { version: "7.0", repo: "{{api.server}}/Centos/7.0", rootPassword: "swarm", ...(failing && { _taskTimeout: 3000 }) },
      },
    });
    if (started.status !== 201) return { kind: "error", error: `${mac}: the install answered ${started.status}` };
    // A machine made to fail never calls back; its task may time out before it even fetches its kickstart (a 404 then).
    const install = await simulateBoot({ server: options.api, macs: [mac], completion: failing ? "none" : "both" }).catch(
      (error: Error) => {
        if (failing) return { outcome: "installed" as const };
        throw error;
      },
    );
    // ... or even before it boots (its 3 s ran out on a loaded store): the service then has no workflow for it.
    const tooLate = failing && install.outcome === "no-workflow";
    if (install.outcome !== "installed" && !tooLate) return { kind: "error", error: `${mac}: the install boot ended ${install.outcome}` };
    if (failing) await sleep(3500);
    const end = await settled(options, node, 120_000);
    if (end._status === "succeeded") return failing ? { kind: "error", error: `${mac}: meant to fail, succeeded` } : { kind: "installed" };
    return { kind: "failed", reason: end.failure?.reason ?? end._status, onPurpose: failing };
  } catch (error) {
    return { kind: "error", error: `${mac}: ${(error as Error).message.slice(0, 300)}` };
  }
}

type StoreCost = { calls: number; readUnits: number; writeUnits: number };

/**
 * The DynamoDB calls and units of the request lines in `log` (JSON lines; anything else skipped),
 * in all and per route (the registry's route key the line names).
 */
export function storeCost(log: string): StoreCost & { byRoute: Record<string, StoreCost & { requests: number }> } {
  const total = { calls: 0, readUnits: 0, writeUnits: 0 };
  const byRoute: Record<string, StoreCost & { requests: number }> = {};
  for (const line of log.split("\n")) {
    if (!line.includes('"dynamodb":')) continue;
    try {
      const { dynamodb: cost, route = "?" } = JSON.parse(line.slice(line.indexOf("{"))) as { dynamodb?: StoreCost; route?: string };
      if (!cost) continue;
      byRoute[route] ??= { requests: 0, calls: 0, readUnits: 0, writeUnits: 0 };
      const slot = byRoute[route];
      slot.requests += 1;
      for (const key of ["calls", "readUnits", "writeUnits"] as const) {
        total[key] += cost[key];
        slot[key] += cost[key];
      }
    } catch {
      // not a log line of ours
    }
  }
  return { ...total, byRoute };
}

export async function runSwarm(options: Options): Promise<SwarmReport> {
  const logFrom = options.serverLog?.().length ?? 0;
  const samples: Sample[] = [];
  const errors: string[] = [];
  const restore = instrument(samples, errors);
  const started = Date.now();
  const outcomes: Outcome[] = [];
  try {
    const failing = new Set(
      Array.from({ length: Math.round(options.machines * options.fail) }, (_, k) =>
        Math.floor((k * options.machines) / Math.max(1, Math.round(options.machines * options.fail))),
      ),
    );
    let next = 0;
    const gap = options.machines > 1 ? (options.rampSeconds * 1000) / (options.machines - 1) : 0;
    await Promise.all(
      Array.from({ length: Math.min(options.concurrency, options.machines) }, async () => {
        for (let i = next++; i < options.machines; i = next++) {
          const due = started + i * gap;
          if (Date.now() < due) await sleep(due - Date.now());
          outcomes.push(await machine(options, i + 1, failing.has(i)));
        }
      }),
    );
  } finally {
    restore();
  }
  const byRoute = new Map<string, Sample[]>();
  for (const sample of samples) byRoute.set(sample.route, [...(byRoute.get(sample.route) ?? []), sample]);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const failureReasons: Record<string, number> = {};
  const cost = options.serverLog && storeCost(options.serverLog().slice(logFrom));
  const installs = Math.max(1, outcomes.filter((outcome) => outcome.kind === "installed").length);
  for (const outcome of outcomes) if (outcome.kind === "failed") failureReasons[outcome.reason] = (failureReasons[outcome.reason] ?? 0) + 1;
  return {
    machines: options.machines,
    installed: outcomes.filter((outcome) => outcome.kind === "installed").length,
    failed: outcomes.filter((outcome) => outcome.kind !== "installed").length,
    failedOnPurpose: outcomes.filter((outcome) => outcome.kind === "failed" && outcome.onPurpose).length,
    failureReasons,
    errors: [...outcomes.flatMap((outcome) => (outcome.kind === "error" ? [outcome.error] : [])), ...errors].slice(0, 50),
    answers5xx: samples.filter((sample) => sample.status >= 500).length,
    ...(cost &&
      cost.calls > 0 && {
        dynamodb: {
          calls: cost.calls,
          readUnits: cost.readUnits,
          writeUnits: cost.writeUnits,
          perInstall: {
            calls: round(cost.calls / installs),
            readUnits: round(cost.readUnits / installs),
            writeUnits: round(cost.writeUnits / installs),
          },
          perRequest: Object.entries(cost.byRoute)
            .map(([route, c]) => ({
              route,
              requests: c.requests,
              calls: round(c.calls / c.requests),
              readUnits: round(c.readUnits / c.requests),
              writeUnits: round(c.writeUnits / c.requests),
            }))
            .sort((a, b) => b.writeUnits * b.requests - a.writeUnits * a.requests),
        },
      }),
    requests: samples.length,
    requestsPerMachine: round(samples.length / options.machines),
    seconds: round((Date.now() - started) / 1000),
    routes: [...byRoute]
      .map(([route, list]) => {
        const sorted = list.map((sample) => sample.ms).sort((a, b) => a - b);
        return {
          route,
          count: list.length,
          p50Ms: round(percentile(sorted, 50)),
          p95Ms: round(percentile(sorted, 95)),
          p99Ms: round(percentile(sorted, 99)),
          maxMs: round(sorted[sorted.length - 1]),
          over499: list.filter((sample) => sample.status >= 500).length,
        };
      })
      .sort((a, b) => b.count - a.count),
  };
}

/** The report as a terminal reads it; its last line is the one scripts read. */
export function reportLines(report: SwarmReport): string[] {
  return [
    `${report.machines} machines in ${report.seconds} s: ${report.requests} requests (${report.requestsPerMachine} per machine)`,
    "route | count | p50 | p95 | p99 | max | >= 500",
    ...report.routes.map((r) => `${r.route} | ${r.count} | ${r.p50Ms} ms | ${r.p95Ms} ms | ${r.p99Ms} ms | ${r.maxMs} ms | ${r.over499}`),
    ...(report.dynamodb
      ? [
          `DynamoDB: ${report.dynamodb.calls} calls, ${report.dynamodb.readUnits} read units, ${report.dynamodb.writeUnits} write units; per installed machine ${report.dynamodb.perInstall.calls} calls, ${report.dynamodb.perInstall.readUnits} read and ${report.dynamodb.perInstall.writeUnits} write units`,
          "route | requests | DynamoDB calls, read units, write units per request",
          ...report.dynamodb.perRequest.map((r) => `${r.route} | ${r.requests} | ${r.calls}, ${r.readUnits}, ${r.writeUnits}`),
        ]
      : []),
    ...(Object.keys(report.failureReasons).length > 0
      ? [`failed with reasons: ${JSON.stringify(report.failureReasons)} (${report.failedOnPurpose} on purpose)`]
      : []),
    ...report.errors.map((error) => `error: ${error}`),
    `${report.machines} machines, ${report.installed} installed, ${report.failed} failed, ${report.answers5xx} answers >= 500`,
  ];
}

if (require.main === module) {
  const options = parseArgs(process.argv.slice(2));
  runSwarm(options).then(
    (report) => {
      if (options.json) writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
      process.stdout.write(`${reportLines(report).join("\n")}\n`);
      process.exit(report.answers5xx === 0 && report.failed === report.failedOnPurpose ? 0 : 1);
    },
    (error: Error) => {
      process.stderr.write(`swarm: ${error.message}\n`);
      process.exit(2);
    },
  );
}
