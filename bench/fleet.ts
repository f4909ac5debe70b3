import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reportLines, runSwarm, type SwarmReport } from "../scripts/swarm";
import { freePort } from "../tests/support/offlineServer";
import { runBench } from "./runBench";
import { savedResults, withSection } from "./sections";

/**
 * `npm run bench:fleet -- [--machines N] [--ramp S] [--fail P]` (issue 28): the swarm against
 * `npm run start:dynamodb` on this machine (DynamoDB Local, every function in its own worker
 * threads), its DynamoDB calls and units summed from the service's own request lines, and the
 * cost per installed machine at list prices. Writes bench/fleet-results.json, which
 * `npm run bench -- --render` renders into BENCHMARKS.md.
 */
export const FLEET_HEADING = "## A fleet";

interface FleetResults {
  date: string;
  report: SwarmReport;
  costPerInstallUsd: number;
  costLines: string[];
}

/**
 * List prices, us-east-1, November 2026: HTTP API $1.00 per million requests; Lambda arm64 at
 * 1024 MB, $0.20 per million requests and $0.0000133334 per GB-second, 20 ms billed per request
 * (the warm figures in this file are single-digit milliseconds; DynamoDB's round trips on AWS are
 * a few ms each); DynamoDB on demand $0.125 per million read units, $0.625 per million write
 * units; CloudWatch Logs $0.50 per GB, a 400-byte request line each.
 */
export function fleetCost(report: SwarmReport): { perInstall: number; lines: string[] } {
  const requests = report.requests / Math.max(1, report.installed);
  const perRequest = 1.0 / 1e6 + 0.2 / 1e6 + 0.02 * 1 * 0.0000133334 + (400 / 1e9) * 0.5;
  const units = report.dynamodb?.perInstall ?? { calls: 0, readUnits: 0, writeUnits: 0 };
  const table = (units.readUnits * 0.125 + units.writeUnits * 0.625) / 1e6;
  const perInstall = requests * perRequest + table;
  const usd = (value: number) => `$${value.toFixed(5)}`;
  return {
    perInstall,
    lines: [
      `requests: ${requests.toFixed(1)} per installed machine × $${(perRequest * 1e6).toFixed(2)} per million (API $1.00, Lambda $0.47, logs $0.20) = ${usd(requests * perRequest)}`,
      `DynamoDB: ${units.calls} calls, ${units.readUnits} read units and ${units.writeUnits} write units per installed machine = ${usd(table)}`,
      `a machine discovered and installed: about ${usd(perInstall)}; 10,000 machines: $${(perInstall * 10_000).toFixed(2)}; 50,000: $${(perInstall * 50_000).toFixed(2)}`,
    ],
  };
}

/** The BENCHMARKS.md section, from the saved results (empty before the first run). */
export function fleetSection(root: string): string[] {
  const r = savedResults<FleetResults>(root, "fleet-results.json");
  if (!r) return [];
  const top = r.report.routes.slice(0, 12);
  return [
    `${FLEET_HEADING}: ${r.report.machines} machines discovered and installed by the swarm`,
    "",
    `Measured by \`npm run bench:fleet\` on ${r.date.slice(0, 10)}: \`npm run swarm\` against \`npm run start:dynamodb\` on this 2-core machine (DynamoDB Local, every function in its own worker threads), ${r.report.machines} machines started over the ramp, each discovered (the microkernel posts its catalogs), given an OBM setting and installed (Graph.InstallCentOS, the installer calling back), ${Math.round(r.report.failedOnPurpose)} made to fail on purpose (no callback: they end \`timeout\` with their reason). **${r.report.installed} installed, ${r.report.failed} failed (${r.report.failedOnPurpose} on purpose: ${JSON.stringify(r.report.failureReasons)}), ${r.report.answers5xx} answers ≥ 500**, in ${r.report.seconds} s; ${r.report.requests} requests, ${r.report.requestsPerMachine} per machine.`,
    "",
    "| route | calls | p50 | p95 | p99 | max | ≥ 500 |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...top.map(
      (route) =>
        `| \`${route.route}\` | ${route.count} | ${route.p50Ms} ms | ${route.p95Ms} ms | ${route.p99Ms} ms | ${route.maxMs} ms | ${route.over499} |`,
    ),
    "",
    "The latencies are this machine's under the whole swarm (DynamoDB Local on Java and the worker threads share its 2 cores), not a deployment's.",
    "",
    ...(r.report.dynamodb?.perRequest
      ? [
          "What each route costs the table per request (the service's own request lines: every DynamoDB call reports its consumed capacity), heaviest writers first. This is issue 28's baseline for the boot path's floor:",
          "",
          "| route | requests | DynamoDB calls | read units | write units |",
          "|---|---:|---:|---:|---:|",
          ...r.report.dynamodb.perRequest.map((c) => `| \`${c.route}\` | ${c.requests} | ${c.calls} | ${c.readUnits} | ${c.writeUnits} |`),
          "",
        ]
      : []),
    "Cost per installed machine at list prices (us-east-1, assumptions in `bench/fleet.ts`):",
    "",
    ...r.costLines.map((line) => `- ${line}`),
    "",
  ];
}

export async function startStack(log: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    LAMBDA_PORT: String(await freePort()),
    WEBSOCKET_PORT: String(await freePort()),
    DYNAMODB_LOCAL_PORT: String(await freePort()),
    DYNAMODB_TABLE: `fleet-${Date.now()}`,
    DEMO_NODES: "off",
    OFFLINE_IN_PROCESS: "false",
    LOG_REQUESTS: "on",
    ESBUILD_WORK_FOLDER: `.esbuild-fleet-${port}`,
  };
  const child: ChildProcess = spawn(process.execPath, ["--require", "tsx/cjs", join(__dirname, "../scripts/startDynamodb.ts")], {
    cwd: join(__dirname, ".."),
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    writeFileSync(log, output);
  };
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  const end = Date.now() + 180_000;
  while (!output.includes("Server ready")) {
    if (Date.now() > end || child.exitCode !== null) throw new Error(`npm run start:dynamodb did not start:\n${output.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // gone
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // gone
      }
      rmSync(join(__dirname, "..", env.ESBUILD_WORK_FOLDER), { recursive: true, force: true });
    },
  };
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string, fallback: number) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? Number(argv[at + 1]) : fallback;
  };
  const log = join(tmpdir(), `fleet-${process.pid}.log`);
  const stack = await startStack(log);
  try {
    const report = await runSwarm({
      machines: arg("machines", 1000),
      rampSeconds: arg("ramp", 60),
      fail: arg("fail", 0.02),
      api: stack.url,
      concurrency: arg("concurrency", 48),
      serverLog: () => readFileSync(log, "utf8"),
    });
    const cost = fleetCost(report);
    const results: FleetResults = { date: new Date().toISOString(), report, costPerInstallUsd: cost.perInstall, costLines: cost.lines };
    writeFileSync(join(__dirname, "fleet-results.json"), `${JSON.stringify(results, null, 2)}\n`);
    const file = join(__dirname, "..", "BENCHMARKS.md");
    writeFileSync(file, withSection(readFileSync(file, "utf8"), FLEET_HEADING, fleetSection(join(__dirname, ".."))));
    process.stdout.write(`${[...reportLines(report).slice(-4), ...cost.lines].join("\n")}\n`);
  } finally {
    await stack.stop();
    rmSync(log, { force: true });
  }
}

if (require.main === module) runBench("bench:fleet", main);
