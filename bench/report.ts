import type { CapacityFigure } from "./capacity";
import type { ColdFigure } from "./coldStart";
import type { GrowthRow } from "./growth";
import type { Figure } from "./harness";
import type { HttpFigure } from "./http";
import type { MemoryFigure } from "./memory";

export interface Results {
  date: string;
  smoke: boolean;
  machine: { cpu: string; cores: number; memoryGiB: number; os: string };
  node: string;
  warm: Figure[];
  growth: GrowthRow[];
  cold: ColdFigure[];
  memory: MemoryFigure[];
  http: HttpFigure[];
  dynamodb: Figure[];
  capacity: CapacityFigure[];
}

/** Endpoints that work on one record: the "≤ 3× the bare baseline" target applies to them. */
const LISTS = /^GET \/(tasks|nodes|workflows|nodes\/\{id\}\/workflows|obms\/library|workflows\/library|workflows\/tasks(\/library)?)$/;
/** The documentation routes answer whole documents (the viewer is 0.9 MB): not single items either. */
const DOCUMENTS = /openapi\.json|\/docs|\/schemas/;
export const isSingleItem = (name: string): boolean =>
  name !== "bare baseline" && !name.startsWith("middy,") && !LISTS.test(name) && !DOCUMENTS.test(name) && !name.startsWith("404");

const mark = (ok: boolean): string => (ok ? "✅" : "❌ see notes");

export function renderReport(r: Results, analysis: string): string {
  const baseline = r.warm.find((f) => f.name === "bare baseline")!;
  const lines: string[] = [];
  const row = (cells: (string | number)[]) => lines.push(`| ${cells.join(" | ")} |`);
  /** A markdown table: the header row, its alignment row ("l" or "r" per column), then the rows. */
  const table = (header: string[], align: string, rows: (string | number)[][]) => {
    row(header);
    row([...align].map((a) => (a === "r" ? "---:" : "---")));
    rows.forEach(row);
    lines.push("");
  };
  lines.push("# Benchmarks", "");
  lines.push(`Measured by \`npm run bench\` on ${r.date.slice(0, 10)}${r.smoke ? " (SMOKE RUN: tiny sizes, not figures to quote)" : ""}.`);
  lines.push(`Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGiB} GiB, ${r.machine.os}. Node ${r.node}.`);
  lines.push("Every figure is from the same run as its baseline. Raw figures: `bench/results.json`.", "");

  lines.push("## Warm invocations", "");
  lines.push(
    "Each bundled handler (minified, as deployed) is invoked in-process with an API Gateway v2 event, through its whole middy stack. Request logs are off (`LOG_REQUESTS=off`) so that stdout is not measured. The baseline is a bare handler: it parses JSON, looks a key up in a Map, and calls `JSON.stringify`, with no middy.",
    "",
  );
  const floor = r.warm.find((f) => f.name.startsWith("middy,"));
  table(
    ["endpoint", "ops/s", "mean µs", "p50 µs", "p99 µs", "× baseline", "× middy floor", "target ≤ 3× (single item)"],
    "lrrrrrrl",
    r.warm.map((f) => {
      const ratio = f.meanUs / baseline.meanUs;
      const overFloor = floor ? (f.meanUs / floor.meanUs).toFixed(1) : "–";
      return [f.name, f.opsPerSec, f.meanUs, f.p50Us, f.p99Us, ratio.toFixed(1), overFloor, isSingleItem(f.name) ? mark(ratio <= 3) : "–"];
    }),
  );

  lines.push("## Growth with stored data", "");
  const sizes = Object.keys(r.growth[0]?.bySize ?? {});
  lines.push(
    `Mean µs per call at each store size, and the ratio largest ÷ smallest. Flat (O(1)) reads ≈ 1; O(n) reads grow with the size. For the workflow start, the size is the node's workflow history ÷ 10.`,
    "",
  );
  table(
    ["operation", ...sizes.map((s) => `${Number(s).toLocaleString("en")} items`), "ratio", "target ≤ 1.5× (single item)"],
    `l${"r".repeat(sizes.length)}rl`,
    r.growth.map((g) => [
      g.operation,
      ...sizes.map((s) => g.bySize[s]?.meanUs ?? "–"),
      g.ratio,
      /list/.test(g.operation) ? "– (O(n) by nature)" : mark(g.ratio <= 1.5),
    ]),
  );

  lines.push("## Cold start", "");
  lines.push(
    "Each bundle is run in a fresh `node` process, and the figure is the median of the runs. The time is counted from the process's start to its first response, so it includes Node's own start-up, loading the bundle and the first invocation. The bare baseline is measured the same way. A deployment's bundles hold only its store's adapters, so each function has a size per store; the times are the memory store's.",
    "",
  );
  table(
    ["function", "bundle, memory", "bundle, DynamoDB", "target ≤ 30 KB", "load ms", "first response ms", "× baseline", "target ≤ 2×"],
    "lrrlrrrl",
    r.cold.map((c) => {
      const reference = c.name === "baseline" || c.name === "middyBaseline";
      const largest = Math.max(c.bundleBytes, c.dynamodbBundleBytes ?? 0);
      return [
        c.name,
        `${(c.bundleBytes / 1024).toFixed(1)} KB`,
        c.dynamodbBundleBytes === undefined ? "–" : `${(c.dynamodbBundleBytes / 1024).toFixed(1)} KB`,
        reference ? "–" : mark(largest <= 30 * 1024),
        c.loadMs,
        c.firstResponseMs,
        c.ratio.toFixed(2),
        reference ? "–" : mark(c.ratio <= 2),
      ];
    }),
  );

  lines.push("## Memory", "");
  table(
    ["what", "count", "heap", "bytes each", "target"],
    "lrrrl",
    r.memory.map((m) => [
      m.what,
      m.count.toLocaleString("en"),
      `${m.heapMB} MB`,
      m.bytesPerItem,
      m.what === "tasks" ? `≤ 40 MB per 100k: ${mark((m.heapMB * 100_000) / m.count <= 40)}` : "– (none set)",
    ]),
  );

  lines.push("## HTTP through serverless offline", "");
  lines.push(
    "The tool is autocannon, with 10 connections over loopback. The server is the real `serverless offline` in-process (`npm start`'s mode), and its request logs are off. The baseline is a bare `node:http` server answering a JSON body, measured in the same run.",
    "",
  );
  table(
    ["request", "requests/s", "p50 ms", "p99 ms", "non-2xx"],
    "lrrrr",
    r.http.map((h) => [h.name, h.requestsPerSec, h.p50Ms, h.p99Ms, h.non2xx]),
  );

  lines.push("## DynamoDB store", "");
  lines.push(
    "The same bundled handlers are run with `STORE=dynamodb` against DynamoDB Local (Amazon's engine, on Java) over loopback. Each figure includes the engine's round trips, so compare them with each other and not with the memory store. On AWS, a DynamoDB round trip from Lambda typically takes single-digit milliseconds.",
    "",
  );
  table(
    ["operation", "ops/s", "mean µs", "p50 µs", "p99 µs"],
    "lrrrr",
    r.dynamodb.map((f) => [f.name, f.opsPerSec, f.meanUs, f.p50Us, f.p99Us]),
  );

  if (r.capacity) {
    lines.push("## Cost per request (DynamoDB mode)", "");
    lines.push(
      "One realistic request per route (the warm cases) through the bundled handlers with `STORE=dynamodb` against DynamoDB Local, every DynamoDB call made with `ReturnConsumedCapacity: TOTAL`. Set-up and clean-up are not counted. Prices: us-east-1 on-demand, $0.125 per million read units, $0.625 per million write units; Lambda arm64 at 1024 MB, $0.20 per million requests plus $0.0000133334 per GB-second, billed by the millisecond for the duration measured here (against DynamoDB Local, so an upper bound); an HTTP API request costs $1.00 per million on top.",
      "",
    );
    const calls = (c: CapacityFigure) =>
      Object.entries(c.calls)
        .map(([name, n]) => `${n} ${name}`)
        .join(", ") || "none";
    table(
      ["route", "DynamoDB calls", "RCU", "WCU", "ms", "DynamoDB $/M", "Lambda $/M", "total with HTTP API $/M"],
      "llrrrrrr",
      r.capacity.map((c) => [
        c.name,
        calls(c),
        c.readUnits,
        c.writeUnits,
        c.durationMs,
        c.dynamodbPerMillion.toFixed(2),
        c.lambdaPerMillion.toFixed(2),
        (c.dynamodbPerMillion + c.lambdaPerMillion + c.apiGatewayPerMillion).toFixed(2),
      ]),
    );
  }

  lines.push(analysis.trim(), "");
  return `${lines.join("\n")}\n`;
}
