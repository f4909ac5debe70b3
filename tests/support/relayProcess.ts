import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { http } from "./offlineServer";

const ROOT = join(__dirname, "../..");
let built = false;

/** A site's relay as a site runs it: the built dist/relay.cjs (built once per test file), its output kept. */
export interface RelayProcess {
  child: ChildProcess;
  log: () => string;
  /** Waits (bounded) for a line the relay prints. */
  waitFor: (text: string, withinMs?: number) => Promise<void>;
  stop: (signal?: NodeJS.Signals) => void;
}

export function startRelayProcess(api: string, token: string, args: string[] = []): RelayProcess {
  if (!built) {
    execFileSync("npm", ["run", "relay:build"], { cwd: ROOT, stdio: "ignore" });
    built = true;
  }
  let log = "";
  const child = spawn(process.execPath, [join(ROOT, "dist/relay.cjs"), "--api", api, ...args], {
    env: { ...process.env, RELAY_TOKEN: token },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => {
    log += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    log += chunk;
  });
  return {
    child,
    log: () => log,
    waitFor: async (text, withinMs = 10_000) => {
      const until = Date.now() + withinMs;
      while (!log.includes(text)) {
        if (Date.now() > until) throw new Error(`the relay did not print "${text}" within ${withinMs} ms:\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop: (signal = "SIGTERM") => child.kill(signal),
  };
}

/** Waits (bounded) for a site's job to end; answers it as an operator sees it, with the relay's log when it does not end. */
export async function jobEnded(baseUrl: string, site: string, jobId: string, relayLog: () => string, withinMs = 30_000) {
  const until = Date.now() + withinMs;
  for (;;) {
    const jobs = (await http(baseUrl, "GET", `/api/1.1/sites/${site}/jobs`)).body as { id: string; state: string }[];
    const job = jobs.find((candidate) => candidate.id === jobId);
    if (job && (job.state === "succeeded" || job.state === "failed")) return job as Record<string, any>;
    if (Date.now() > until) throw new Error(`job ${jobId} did not end within ${withinMs} ms; relay log:\n${relayLog()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs the scheduled pollers' function now, through serverless offline's invoke API, rather than waiting a minute. */
export async function runPollersNow(lambdaUrl: string): Promise<number> {
  const tick = await fetch(`${lambdaUrl}/2015-03-31/functions/lambda-tasks-provisioning-local-runPollers/invocations`, {
    method: "POST",
    body: "{}",
  });
  return tick.status;
}

/** Waits (bounded) for a poller's first sample, which its relay's result makes; with the relay's log when none comes. */
export async function pollerSample(baseUrl: string, pollerId: string, relayLog: () => string, withinMs = 30_000) {
  const until = Date.now() + withinMs;
  for (;;) {
    const answer = await http(baseUrl, "GET", `/api/1.1/pollers/${pollerId}/data/current`);
    if (answer.status === 200) return (answer.body as Record<string, any>[])[0];
    if (Date.now() > until) throw new Error(`no sample for poller ${pollerId}; relay log:\n${relayLog()}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
