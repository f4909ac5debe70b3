/**
 * npm run bench:burst — issue 12 §9: the local shared-store mode (`npm run start:dynamodb`:
 * DynamoDB Local, serverless offline with every function in its own worker thread) under a
 * burst: 200 parallel creates (BURST) from 4 client processes right after start-up (cold), then
 * the same twice again (warm). Prints the latencies and answers; the README quotes them.
 */
import { execFile, spawn } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "../tests/support/offlineServer";

const run = promisify(execFile);
const ROOT = join(__dirname, "..");

/** One client process: `count` parallel creates; prints their latencies (ms) and statuses as JSON. */
const CLIENT = `
const [url, count, tag] = process.argv.slice(1);
const one = async (i) => {
  const started = performance.now();
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: tag + "-" + i }) });
  const text = await r.text();
  return { ms: performance.now() - started, status: r.status, ok: r.status === 201 && text.includes('"task"') };
};
Promise.all(Array.from({ length: Number(count) }, (_, i) => one(i))).then((all) => process.stdout.write(JSON.stringify(all)));
`;

async function burst(url: string, tag: string): Promise<{ ms: number; status: number; ok: boolean }[]> {
  const perClient = String(Number(process.env.BURST ?? 200) / 4);
  const clients = [0, 1, 2, 3].map((c) => run(process.execPath, ["-e", CLIENT, url, perClient, `${tag}-${c}`], { maxBuffer: 1 << 22 }));
  return (await Promise.all(clients)).flatMap(({ stdout }) => JSON.parse(stdout));
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function report(name: string, results: { ms: number; status: number; ok: boolean }[]): void {
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const statuses: Record<number, number> = {};
  for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const failed = results.filter((r) => !r.ok).length;
  process.stdout.write(
    `${name}: ${results.length} creates, ${failed} not created, statuses ${JSON.stringify(statuses)}, p50 ${pct(ms, 50).toFixed(0)} ms, p99 ${pct(ms, 99).toFixed(0)} ms, max ${ms[ms.length - 1].toFixed(0)} ms\n`,
  );
}

async function main(): Promise<void> {
  const [port, lambdaPort, dbPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(process.execPath, ["--require", "tsx/cjs", join(ROOT, "scripts/startDynamodb.ts")], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      LAMBDA_PORT: String(lambdaPort),
      WEBSOCKET_PORT: String(await freePort()),
      DYNAMODB_LOCAL_PORT: String(dbPort),
      LOG_REQUESTS: "off",
      ESBUILD_WORK_FOLDER: `.esbuild-burst-${port}`,
      SLS_TELEMETRY_DISABLED: "1",
    },
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const started = Date.now();
  while (!output.includes("Server ready")) {
    if (Date.now() - started > 120_000) throw new Error(`npm run start:dynamodb did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.stdout.write(`npm run start:dynamodb ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  const url = `http://127.0.0.1:${port}/todo/api/v1.0/tasks`;
  try {
    report("cold (right after start-up)", await burst(url, "cold"));
    report("warm", await burst(url, "warm"));
    report("warm again", await burst(url, "warm2"));
  } finally {
    process.kill(-child.pid!, "SIGTERM");
  }
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  },
);
