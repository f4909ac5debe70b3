/**
 * npm run bench:boot-path [-- --baseline] — the boot path, request by request (issue 28): one
 * machine of the swarm (first boot and discovery, an install, its completion) against
 * `npm run start:dynamodb`, and what each of its southbound requests cost the table (calls, read
 * and write units, from the service's own request lines). `--baseline` keeps the run as the
 * figures to compare with; otherwise it is the current one. `--log FILE` keeps the service's log
 * (run with LOG_LEVEL=debug for each DynamoDB call with its partition keys). Writes bench/boot-path-results.json
 * and its section of BENCHMARKS.md.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runSwarm } from "../scripts/swarm";
import { startStack } from "./fleet";
import { type KindLoad, LIMITS_HEADING, limitsSection, loadByKind } from "./fleetLimits";
import { runBench } from "./runBench";
import { withSection } from "./sections";

export const BOOT_PATH_HEADING = "## The boot path, request by request";
const RESULTS = "bench/boot-path-results.json";

/** What a machine calls (the rest of the swarm's requests are an operator's). */
const SOUTHBOUND = /^(GET|POST) \/api\/\{version\}\/(profiles|tasks|templates|notification)/;

export interface Step {
  route: string;
  /** How many times in a row the machine made it, each costing the same. */
  times: number;
  calls: number;
  readUnits: number;
  writeUnits: number;
}

interface BootPathResults {
  baseline?: { date: string; steps: Step[] };
  /** `kinds`: the machine's load per kind of partition key, when the run had LOG_LEVEL=debug. */
  current?: { date: string; steps: Step[]; kinds?: KindLoad[] };
}

/** The machine's requests from the service's log, in order, a repeat of the same cost folded into one step. */
export function stepsOf(log: string): Step[] {
  const steps: Step[] = [];
  for (const line of log.split("\n")) {
    if (!line.includes('"msg":"request"') || !line.includes('"dynamodb":')) continue;
    const entry = JSON.parse(line.slice(line.indexOf("{"))) as {
      route?: string;
      dynamodb: { calls: number; readUnits: number; writeUnits: number };
    };
    if (!entry.route || !SOUTHBOUND.test(entry.route)) continue;
    const step = { route: entry.route, times: 1, ...entry.dynamodb };
    const last = steps[steps.length - 1];
    const same = last && last.route === step.route && last.calls === step.calls && last.writeUnits === step.writeUnits;
    if (same && last.readUnits === step.readUnits) last.times += 1;
    else steps.push(step);
  }
  return steps;
}

const totals = (steps: Step[]) =>
  steps.reduce(
    (sum, step) => ({
      requests: sum.requests + step.times,
      calls: sum.calls + step.times * step.calls,
      readUnits: sum.readUnits + step.times * step.readUnits,
      writeUnits: sum.writeUnits + step.times * step.writeUnits,
    }),
    { requests: 0, calls: 0, readUnits: 0, writeUnits: 0 },
  );

const row = (step: Step) =>
  `| \`${step.route}\`${step.times > 1 ? ` ×${step.times}` : ""} | ${step.calls} | ${step.readUnits} | ${step.writeUnits} |`;

export function bootPathSection(root: string): string[] {
  let results: BootPathResults;
  try {
    results = JSON.parse(readFileSync(join(root, RESULTS), "utf8")) as BootPathResults;
  } catch {
    return [];
  }
  const runs = [
    ["before (the baseline)", results.baseline],
    ["now", results.current],
  ] as const;
  const sum = (steps: Step[]) => {
    const t = totals(steps);
    return `**${t.requests} requests, ${t.calls} calls, ${Math.round(t.readUnits * 10) / 10} read units, ${Math.round(t.writeUnits * 10) / 10} write units**`;
  };
  return [
    BOOT_PATH_HEADING,
    "",
    "Measured by `npm run bench:boot-path`: one machine of the swarm against `npm run start:dynamodb` (its first boot and discovery with the microkernel's catalogs, an install with its kickstart and completion), each of its own requests with what it cost the table (the service's request lines), in order; a request repeated at the same cost (the microkernel polling for its next task) is one row with its count.",
    "",
    ...runs.flatMap(([label, run]) =>
      run
        ? [
            `### ${label}: ${run.date.slice(0, 10)}, ${sum(run.steps)}`,
            "",
            "| request | DynamoDB calls | read units | write units |",
            "|---|---:|---:|---:|",
            ...run.steps.map(row),
            "",
          ]
        : [],
    ),
  ];
}

async function main(argv: string[]): Promise<void> {
  const root = join(__dirname, "..");
  const log = join(tmpdir(), `boot-path-${process.pid}.log`);
  const stack = await startStack(log);
  try {
    const from = readFileSync(log, "utf8").length;
    const report = await runSwarm({ machines: 1, rampSeconds: 0, fail: 0, api: stack.url, concurrency: 1 });
    if (report.installed !== 1) throw new Error(`the machine did not install: ${JSON.stringify(report.errors)}`);
    const steps = stepsOf(readFileSync(log, "utf8").slice(from));
    // --log FILE keeps the service's log (with LOG_LEVEL=debug, each DynamoDB call and its keys).
    const keep = argv.indexOf("--log");
    if (keep >= 0) writeFileSync(argv[keep + 1], readFileSync(log, "utf8").slice(from));
    let results: BootPathResults = {};
    try {
      results = JSON.parse(readFileSync(join(root, RESULTS), "utf8")) as BootPathResults;
    } catch {
      // the first run
    }
    const kinds = loadByKind(readFileSync(log, "utf8").slice(from));
    results[argv.includes("--baseline") ? "baseline" : "current"] = {
      date: new Date().toISOString(),
      steps,
      ...(kinds.length > 0 && { kinds }),
    };
    writeFileSync(join(root, RESULTS), `${JSON.stringify(results, null, 2)}\n`);
    const file = join(root, "BENCHMARKS.md");
    const rendered = withSection(readFileSync(file, "utf8"), BOOT_PATH_HEADING, bootPathSection(root));
    writeFileSync(file, withSection(rendered, LIMITS_HEADING, limitsSection(root)));
    process.stdout.write(`${bootPathSection(root).join("\n")}\n`);
  } finally {
    await stack.stop();
    rmSync(log, { force: true });
  }
}

if (require.main === module) runBench("bench:boot-path", main);
