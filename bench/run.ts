/**
 * npm run bench — measures what a request costs (warm, cold, as data grows, in memory, over HTTP,
 * on DynamoDB) and saves bench/results.json and BENCHMARKS.md. Figures are printed and saved,
 * never asserted: a benchmark does not fail on a number.
 *   --smoke        tiny sizes and times (npm test runs this to keep the bench code working)
 *   --out DIR      where to write results.json and BENCHMARKS.md (default: bench/ and the repo root)
 *   --render       only rewrite BENCHMARKS.md from bench/results.json, bench/analysis.md and the
 *                  other benches' saved sections (bench/document.ts)
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, platform, release, totalmem } from "node:os";
import { join } from "node:path";
import { buildBundles, ROOT } from "./bundles";
import { coldStarts } from "./coldStart";
import { benchmarksDocument } from "./document";
import { dynamoFigures } from "./dynamodb";
import { growth } from "./growth";
import { type Handler, type Handlers, measure } from "./harness";
import { httpFigures } from "./http";
import { memoryFigures } from "./memory";
import type { Results } from "./report";
import { recordStart, startFigures } from "./start";
import { baselineCases, warmCases } from "./warm";

const args = process.argv.slice(2);
const smoke = args.includes("--smoke");
const outAt = args.indexOf("--out");
const outDir = outAt >= 0 ? args[outAt + 1] : undefined;

const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  if (args.includes("--render")) {
    const saved = JSON.parse(readFileSync(join(ROOT, "bench", "results.json"), "utf8")) as Results;
    // The other benches' sections come from their own saved results, as after a full run.
    writeFileSync(join(ROOT, "BENCHMARKS.md"), benchmarksDocument(saved, ROOT));
    log("rewrote BENCHMARKS.md from bench/results.json and the other benches' saved sections");
    return;
  }
  Object.assign(process.env, {
    LOG_REQUESTS: "off",
    DEMO_NODES: "on",
    STORE: "memory",
    MEMORY_STORE_CAPACITY: "100000000",
    MEMORY_STORE_MAX_BYTES: String(Number.MAX_SAFE_INTEGER),
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    // The saved figures were taken without the metrics line (METRICS, on by default since issue 25):
    // off keeps them comparable, and keeps an EMF line per timed call out of the terminal.
    METRICS: "off",
    HOOK_SIGNING_KEY: "bench-only-hook-signing-key-not-a-secret",
    // As the local stage: the hook cases register http://127.0.0.1 targets (issue 35 refuses both
    // plain http and private addresses on a deployed stage).
    HOOK_HTTP: "on",
    HOOK_PRIVATE_TARGETS: "on",
    // RackHD's POST /login case signs in as this user (the operators' API itself stays open: PROVISIONING_AUTH unset).
    AUTH_USERS: "bench:bench-login-password",
  });
  for (const name of ["TASKS_AUTH", "PROVISIONING_AUTH", "TASKS_PUBLIC_FORM", "PUBLIC_BASE_URL", "API_SERVER", "CORS_ORIGINS"])
    delete process.env[name];

  log(`bench${smoke ? " (smoke)" : ""}: bundling the handlers as serverless-esbuild does...`);
  const bundles = await buildBundles("memory");
  const dynamoBundles = await buildBundles("dynamodb");
  // One bundle per registry entry (bench/bundles.ts builds them from it), plus the two baselines.
  const handlers = Object.fromEntries(Object.entries(bundles).map(([name, bundle]) => [name, require(bundle.file).handler])) as Handlers &
    Record<"baseline" | "middyBaseline", Handler>;

  const time = smoke ? 20 : 500;
  log("warm invocations...");
  const cases = await warmCases(handlers);
  const warm = await measure([...baselineCases(handlers), ...cases], time);

  log("growth with stored data...");
  const growthRows = await growth(handlers, smoke ? [100, 1000] : [1_000, 10_000, 100_000], smoke ? 20 : 300);

  log("cold starts...");
  const cold = await coldStarts(bundles, smoke ? 1 : 7, dynamoBundles);

  log("memory...");
  const memory = await memoryFigures(smoke ? 1_000 : 100_000, smoke ? 100 : 10_000);

  log("HTTP through serverless offline (autocannon)...");
  const http = await httpFigures(smoke ? 1 : 10);

  log("DynamoDB store (DynamoDB Local)...");
  const { timing: dynamodb, capacity } = await dynamoFigures(smoke ? 20 : 1000, smoke ? 1 : 5);

  // npm start's time to its first answer and its memory (bench/start.ts); the smoke run measures
  // them too but keeps bench/start-results.json as it is.
  log("npm start: time to first answer and memory...");
  const starts = await startFigures({}, smoke);
  for (const run of starts) log(`  ${run.label}: first answer ${(run.firstAnswerMs / 1000).toFixed(1)} s, peak ${run.peakMiB} MiB`);
  if (!smoke) recordStart(starts, "current");

  const cpu = cpus();
  const results: Results = {
    date: new Date().toISOString(),
    smoke,
    machine: {
      cpu: cpu[0]?.model ?? "unknown",
      cores: cpu.length,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      os: `${platform()} ${release()}`,
    },
    node: process.version,
    warm,
    growth: growthRows,
    cold,
    memory,
    http,
    dynamodb,
    capacity,
  };
  const report = benchmarksDocument(results, ROOT);
  const jsonPath = outDir ? join(outDir, "results.json") : join(ROOT, "bench", "results.json");
  const mdPath = outDir ? join(outDir, "BENCHMARKS.md") : join(ROOT, "BENCHMARKS.md");
  if (outDir) mkdirSync(outDir, { recursive: true });
  writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(mdPath, report);
  log(report);
  log(`saved ${jsonPath} and ${mdPath}`);
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`bench failed: ${error.stack}\n`);
    process.exit(1);
  },
);
