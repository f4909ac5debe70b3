/**
 * npm run bench:start [-- --baseline] — what `npm start` costs the machine it runs on (issue 36):
 * the time from the command to its first answer, and the resident memory of all its processes
 * together (serverless offline, esbuild's service, anything they start), sampled from /proc every
 * 100 ms. Each start is measured twice: with an empty work folder, then again with the first one's
 * folder and the machine's file cache warm. After the first answer, one request reaches every
 * function of the registry (so every function's code is loaded, as a day's use would), and the peak
 * is taken again. Figures are saved, never asserted.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { methodsOf } from "../lib/http/routes/endpoint";
import { ROUTES } from "../lib/http/routes/index";
import { freePort } from "../tests/support/offlineServer";
import { runBench } from "./runBench";
import { withSection } from "./sections";

export const START_HEADING = "## npm start: time to first answer and memory";
const RESULTS = "bench/start-results.json";
const ROOT = join(__dirname, "..");
const MiB = 2 ** 20;

export interface StartRun {
  label: string;
  /** From the spawn to the first 200 of GET /api/1.1/nodes. */
  firstAnswerMs: number;
  /** The largest sum of the processes' resident memory up to the first answer. */
  peakToFirstAnswerMiB: number;
  /** The largest sum over the whole run: start, then one request to every function. */
  peakMiB: number;
  /** The sum once every function has answered once. */
  afterEveryFunctionMiB: number;
  functions: number;
  processes: number;
}

interface StartResults {
  baseline?: { date: string; how: string; runs: StartRun[] };
  current?: { date: string; how: string; runs: StartRun[] };
}

/** The resident bytes of every process in a process group, and how many there are. */
export function groupResident(group: number): { bytes: number; processes: number } {
  let bytes = 0;
  let processes = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    // After the command's name (in parentheses, which may hold spaces): state, ppid, pgrp, … rss (24th field).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) !== group) continue;
    processes += 1;
    bytes += Number(fields[21]) * 4096;
  }
  return { bytes, processes };
}

/** A request to each function: its route with every parameter named `x` (a 404 or 400 loads the code as well as a 200). */
function everyFunction(): { method: string; path: string }[] {
  return ROUTES.map((route) => ({
    method: methodsOf(route).includes("GET") ? "GET" : methodsOf(route)[0],
    path: route.path.replace(/\{[^}]+\}/g, "x"),
  }));
}

async function measureStart(label: string, workFolder: string, env: Record<string, string>): Promise<StartRun> {
  const port = await freePort();
  const started = Date.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, "node_modules/serverless/bin/serverless.js"), "offline", "--stage", "local"],
    {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
      env: {
        ...process.env,
        SLS_TELEMETRY_DISABLED: "1",
        SLS_NOTIFICATIONS_MODE: "off",
        DEMO_NODES: "on",
        LOG_REQUESTS: "off",
        PORT: String(port),
        LAMBDA_PORT: String(await freePort()),
        WEBSOCKET_PORT: String(await freePort()),
        ESBUILD_WORK_FOLDER: workFolder,
        ...env,
      },
    },
  );
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  let peak = 0;
  let processes = 0;
  const sample = () => {
    const now = groupResident(child.pid!);
    peak = Math.max(peak, now.bytes);
    processes = Math.max(processes, now.processes);
    return now.bytes;
  };
  const sampler = setInterval(sample, 100);
  const base = `http://127.0.0.1:${port}`;
  try {
    let firstAnswerMs = 0;
    while (firstAnswerMs === 0) {
      if (child.exitCode !== null) throw new Error(`serverless offline exited: ${errors}`);
      if (Date.now() - started > 600_000) throw new Error(`no answer in 10 minutes: ${errors}`);
      const answer = await fetch(`${base}/api/1.1/nodes`).catch(() => undefined);
      if (answer?.status === 200) firstAnswerMs = Date.now() - started;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const peakToFirstAnswer = Math.max(peak, sample());
    const requests = everyFunction();
    for (const { method, path } of requests) await fetch(base + path, { method }).then((answer) => answer.arrayBuffer());
    const after = sample();
    return {
      label,
      firstAnswerMs,
      peakToFirstAnswerMiB: Math.round(peakToFirstAnswer / MiB),
      peakMiB: Math.round(peak / MiB),
      afterEveryFunctionMiB: Math.round(after / MiB),
      functions: requests.length,
      processes,
    };
  } finally {
    clearInterval(sampler);
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Both starts of one configuration: an empty work folder, then the same folder again. */
export async function startFigures(env: Record<string, string> = {}, once = false): Promise<StartRun[]> {
  const workFolder = `.esbuild-bench-start-${process.pid}`;
  rmSync(join(ROOT, workFolder), { recursive: true, force: true });
  try {
    const first = await measureStart("first start (empty work folder)", workFolder, env);
    // The smoke run keeps the code working: the second start runs the same code.
    if (once) return [first];
    return [first, await measureStart("second start (work folder and file cache warm)", workFolder, env)];
  } finally {
    rmSync(join(ROOT, workFolder), { recursive: true, force: true });
  }
}

export function startSection(root: string): string[] {
  let results: StartResults;
  try {
    results = JSON.parse(readFileSync(join(root, RESULTS), "utf8")) as StartResults;
  } catch {
    return [];
  }
  const row = (kind: string, run: StartRun) =>
    `| ${kind} | ${run.label} | ${(run.firstAnswerMs / 1000).toFixed(1)} s | ${run.peakToFirstAnswerMiB} MiB | ${run.peakMiB} MiB | ${run.afterEveryFunctionMiB} MiB | ${run.processes} |`;
  const kinds = (["baseline", "current"] as const).filter((kind) => results[kind]);
  return [
    START_HEADING,
    "",
    `Measured by \`npm run bench:start\` (and \`npm run bench\`): \`serverless offline --stage local\` as \`npm start\` runs it, its time from the command to the first 200 of \`GET /api/1.1/nodes\`, and the resident memory of all its processes together (the process group, from /proc every 100 ms); then one request to each of the registry's ${results.current?.runs[0]?.functions ?? results.baseline?.runs[0]?.functions} functions, so that every function's code is loaded. The goal (issue 36): the first answer within 20 s, under 1 GB throughout.`,
    "",
    ...kinds.flatMap((kind) => [`- ${kind} (${results[kind]!.date.slice(0, 10)}): ${results[kind]!.how}`]),
    "",
    "| build | start | first answer | peak to first answer | peak, every function called | after every function | processes |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...kinds.flatMap((kind) => results[kind]!.runs.map((run) => row(kind, run))),
    "",
  ];
}

/** Saves a measurement as the baseline or the current one (with what was measured, `how`, or the last one's words). */
export function recordStart(runs: StartRun[], kind: "baseline" | "current", how?: string): void {
  let results: StartResults = {};
  try {
    results = JSON.parse(readFileSync(join(ROOT, RESULTS), "utf8")) as StartResults;
  } catch {
    // the first run
  }
  results[kind] = { date: new Date().toISOString(), how: how ?? results[kind]?.how ?? "", runs };
  writeFileSync(join(ROOT, RESULTS), `${JSON.stringify(results, null, 2)}\n`);
}

async function main(argv: string[]): Promise<void> {
  const howAt = argv.indexOf("--how");
  recordStart(await startFigures(), argv.includes("--baseline") ? "baseline" : "current", howAt >= 0 ? argv[howAt + 1] : undefined);
  const file = join(ROOT, "BENCHMARKS.md");
  writeFileSync(file, withSection(readFileSync(file, "utf8"), START_HEADING, startSection(ROOT)));
  process.stdout.write(`${startSection(ROOT).join("\n")}\n`);
}

if (require.main === module) runBench("bench:start", main);
