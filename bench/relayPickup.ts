import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LEASE_MS } from "../lib/provisioning/relays/job";
import { PUSH } from "../lib/wire/relay";
import { runRelay } from "../relay/relay";
import { http, startOffline } from "../tests/support/offlineServer";
import { percentile } from "./percentile";
import { runBench } from "./runBench";
import { savedResults, withSection } from "./sections";

export const RELAY_HEADING = "## Relay pickup";

/**
 * `npm run bench:relay`: how long a job waits for its relay (pickup: from the request that made it
 * to the relay's lease), against the real `serverless offline`, with the relay's default polling
 * (0.5 s while it has had work in the last minute, 5 s when idle) and a driver that answers at once.
 * Busy: jobs 0.5–1.5 s apart. Idle: each job after the relay has gone idle. Then the cost of a
 * relay-month at list prices, from the polls counted. Writes bench/relay-results.json, which
 * `npm run bench` renders into BENCHMARKS.md.
 */
export interface RelayResults {
  date: string;
  busy: { jobs: number; p50Ms: number; p95Ms: number; maxMs: number };
  idle: { jobs: number; p50Ms: number; p95Ms: number; maxMs: number };
  pollsPerMinuteIdle: number;
  cost: { idleMonthUsd: number; busyHourUsd: number; lines: string[] };
  /** The same relay holding its push connection (issue 56), measured in the same run. */
  push?: {
    busy: RelayResults["busy"];
    idle: RelayResults["idle"];
    pollsPerMinuteIdle: number;
    cost: { idleMonthUsd: number; lines: string[] };
  };
}

const BUSY_POLL_MS = 500;
const IDLE_POLL_MS = 5_000;
const BUSY_FOR_MS = 3_000; // shorter than the relay's minute, so the idle phase does not take an hour

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { jobs: values.length, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted[sorted.length - 1] };
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A lease request: API, Lambda request and 15 ms, one read unit, a log line (relayCost's assumptions, below). */
const LEASE_REQUEST_USD = 1.0 / 1e6 + 0.2 / 1e6 + 0.015 * 1 * 0.0000166667 + (1 * 0.125) / 1e6 + (300 / 1e9) * 0.5;

/**
 * List prices, us-east-1, November 2026: HTTP API $1.00 per million requests; Lambda $0.20 per
 * million requests and $0.0000166667 per GB-second (x86; the functions have 1024 MB); DynamoDB
 * on demand $0.125 per million read units, $0.625 per million write units; CloudWatch Logs $0.50
 * per GB ingested. A lease request: 15 ms billed (warm, with its DynamoDB calls), one GetItem of
 * the credential and one Query of the site's jobs (0.5 read unit each, eventually consistent), a
 * 300-byte log line; the credential's last-seen time written every 30 s.
 */
export function relayCost(pollsPerMinute: number): RelayResults["cost"] {
  const perRequest = LEASE_REQUEST_USD;
  const lastSeenPerMonth = (30 * 24 * 3600) / 30;
  const month = (polls: number) => polls * 60 * 24 * 30 * perRequest + (lastSeenPerMonth * 0.625) / 1e6;
  const idleMonthUsd = Math.round(month(pollsPerMinute) * 100) / 100;
  const busyHourUsd = Math.round(60 * (60_000 / BUSY_POLL_MS) * perRequest * 10_000) / 10_000;
  return {
    idleMonthUsd,
    busyHourUsd,
    lines: [
      `per lease request: $${(perRequest * 1e6).toFixed(2)} per million (API $1.00, Lambda requests $0.20, Lambda time $0.25, DynamoDB reads $0.125, logs $0.15)`,
      `idle: ${pollsPerMinute} polls a minute → ${Math.round(pollsPerMinute * 60 * 24 * 30).toLocaleString("en")} a month → $${idleMonthUsd} per relay-month`,
      `busy: ${60_000 / BUSY_POLL_MS} polls a minute → $${busyHourUsd} per busy hour (a site busy 2 hours a day adds $${(busyHourUsd * 60).toFixed(2)} a month)`,
    ],
  };
}

/**
 * A relay-month holding the push connection (issue 56), list prices, us-east-1, November 2026:
 * API Gateway WebSocket $0.25 per million connection minutes and $1.00 per million messages (each
 * way); a ping every PUSH.keepAliveMs is a message in, its function (Lambda request and 15 ms at
 * 1024 MB), a GetItem of the connection and a write of the credential (online), and the pong a
 * message out; a connection renewed every PUSH.renewAfterMs (a $connect function with a GetItem
 * and two writes, a $disconnect with a GetItem, a Query and two writes); the polls it still makes;
 * a job's push: a Query of the site's connections and a message per connected relay.
 */
export function pushCost(pollsPerMinute: number): { idleMonthUsd: number; lines: string[] } {
  const month = 30 * 24 * 60;
  const lambda = 0.2 / 1e6 + 0.015 * 1 * 0.0000166667;
  const read = 0.125 / 1e6 / 2;
  const write = 0.625 / 1e6;
  const pings = month / (PUSH.keepAliveMs / 60_000);
  const renewals = month / (PUSH.renewAfterMs / 60_000);
  const connection = (month * 0.25) / 1e6;
  const ping = 2 * (1.0 / 1e6) + lambda + read + write;
  const renewal = 2 * lambda + 3 * read + 4 * write;
  // At least the designed one every keepAliveMs: a minute's measure may fall between two.
  const pollRate = Math.max(pollsPerMinute, 60_000 / PUSH.keepAliveMs);
  const polls = pollRate * month * LEASE_REQUEST_USD;
  const idleMonthUsd = Math.round((connection + pings * ping + renewals * renewal + polls) * 1000) / 1000;
  return {
    idleMonthUsd,
    lines: [
      `connection: ${month.toLocaleString("en")} minutes → $${connection.toFixed(4)}`,
      `keep-alive: a ping every ${PUSH.keepAliveMs / 60_000} minutes (${pings.toLocaleString("en")} a month, each a message in and out, its function, a read and a write) → $${(pings * ping).toFixed(4)}`,
      `renewal: every ${PUSH.renewAfterMs / 60_000} minutes (${Math.round(renewals)} a month) → $${(renewals * renewal).toFixed(4)}`,
      `polls while connected: ${pollsPerMinute} in the idle minute measured, one every ${PUSH.keepAliveMs / 60_000} minutes by design (${Math.round(pollRate * month).toLocaleString("en")} a month) → $${polls.toFixed(4)}`,
      `idle: $${idleMonthUsd} per relay-month; a job adds one message per connected relay ($1 per million) and a Query of the site's connections`,
    ],
  };
}

async function main(): Promise<void> {
  const server = await startOffline({ DEMO_NODES: "off", LOG_REQUESTS: "off" });
  const call = (method: string, path: string, body?: unknown) =>
    http(server.baseUrl, method, `/api/1.1${path}`, {
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const stop = new AbortController();
  try {
    /** One relay, with the push or without, measured the same way: busy pickups, idle pickups, idle polls a minute. */
    const measure = async (push: boolean) => {
      const site = (await call("POST", "/sites", { name: push ? "bench-push" : "bench-poll" })).body.id;
      const { token } = (await call("POST", `/sites/${site}/relays`, {})).body;
      const node = (
        await call("POST", "/nodes", { name: `bench-${push}`, identifiers: [push ? "52:54:00:be:11:02" : "52:54:00:be:11:01"] })
      ).body.id;
      await call("POST", `/nodes/${node}/obm`, { service: "ipmi-obm-service", config: { host: "10.0.0.1", user: "admin", password: "x" } });
      await call("PUT", `/nodes/${node}/site`, { site });
      let polls = 0;
      const relayStop = new AbortController();
      stop.signal.addEventListener("abort", () => relayStop.abort());
      const relay = runRelay({
        api: server.baseUrl,
        token,
        drivers: { "ipmi-obm-service": async () => ({ ok: true, output: "Chassis Power is on" }) },
        busyPollMs: BUSY_POLL_MS,
        idlePollMs: IDLE_POLL_MS,
        busyForMs: BUSY_FOR_MS,
        push,
        onPoll: () => {
          polls += 1;
        },
        log: () => undefined,
        signal: relayStop.signal,
      });
      const pickups = async (count: number, gap: () => number): Promise<number[]> => {
        const ids: string[] = [];
        for (let i = 0; i < count; i += 1) {
          await sleep(gap());
          ids.push((await call("POST", `/nodes/${node}/power`, { action: "status" })).body.id);
        }
        await sleep(IDLE_POLL_MS + 1_000);
        const jobs = (await call("GET", `/sites/${site}/jobs`)).body as { id: string; createdAt: string; lease?: { until: string } }[];
        return jobs
          .filter((job) => ids.includes(job.id) && job.lease)
          .map((job) => Date.parse(job.lease!.until) - LEASE_MS - Date.parse(job.createdAt));
      };
      await pickups(1, () => 0); // the relay starts idle (and connects): one job first, unmeasured
      const busy = summary(await pickups(40, () => 500 + Math.random() * 1_000));
      // Idle: wait until the relay has slowed down, then a job at a random point of its idle poll.
      const idle = summary(await pickups(12, () => BUSY_FOR_MS + IDLE_POLL_MS + Math.random() * IDLE_POLL_MS));
      await sleep(BUSY_FOR_MS + 1_000);
      const before = polls;
      await sleep(60_000);
      const pollsPerMinuteIdle = polls - before;
      relayStop.abort();
      await relay;
      return { busy, idle, pollsPerMinuteIdle };
    };
    // Side by side in one run, on one server: the relay polling (--no-push), then holding its push connection.
    const poll = await measure(false);
    const push = await measure(true);
    const results: RelayResults = {
      date: new Date().toISOString(),
      ...poll,
      cost: relayCost(poll.pollsPerMinuteIdle),
      push: { ...push, cost: pushCost(push.pollsPerMinuteIdle) },
    };
    writeFileSync(join(__dirname, "relay-results.json"), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(
      join(__dirname, "..", "BENCHMARKS.md"),
      withSection(readFileSync(join(__dirname, "..", "BENCHMARKS.md"), "utf8"), RELAY_HEADING, relaySection(join(__dirname, ".."))),
    );
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } finally {
    stop.abort();
    await server.stop();
  }
}

/** The BENCHMARKS.md section, from the saved results (empty before the first run). */
export function relaySection(root: string): string[] {
  const r = savedResults<RelayResults>(root, "relay-results.json");
  if (!r) return [];
  return [
    `${RELAY_HEADING} and cost per relay-month`,
    "",
    `Measured by \`npm run bench:relay\` on ${r.date.slice(0, 10)} against \`serverless offline\` (memory store): from the request that makes a job to the relay's lease of it, with the relay's default polls (0.5 s while it has had work in the last minute, 5 s idle) and a driver that answers at once.`,
    "",
    "| relay | jobs | pickup p50 | p95 | max |",
    "|---|---:|---:|---:|---:|",
    `| busy (jobs 0.5–1.5 s apart) | ${r.busy.jobs} | ${r.busy.p50Ms} ms | ${r.busy.p95Ms} ms | ${r.busy.maxMs} ms |`,
    `| idle (first job after a quiet spell) | ${r.idle.jobs} | ${r.idle.p50Ms} ms | ${r.idle.p95Ms} ms | ${r.idle.maxMs} ms |`,
    ...(r.push
      ? [
          `| push: busy | ${r.push.busy.jobs} | ${r.push.busy.p50Ms} ms | ${r.push.busy.p95Ms} ms | ${r.push.busy.maxMs} ms |`,
          `| push: idle | ${r.push.idle.jobs} | ${r.push.idle.p50Ms} ms | ${r.push.idle.p95Ms} ms | ${r.push.idle.maxMs} ms |`,
        ]
      : []),
    "",
    ...(r.push
      ? [
          `Push (issue 56): the same relay holding its WebSocket connection to serverless offline's WebSocket API, in the same run; it polled ${r.push.pollsPerMinuteIdle} times in an idle minute (polling: ${r.pollsPerMinuteIdle}). Goals: pickup p95 ≤ 0.3 s at any time, ≤ $0.10 per idle relay-month. Locally the push path is the job's request, the @connections POST and the relay's lease; deployed, API Gateway's own delivery adds its latency (tens of ms).`,
          "",
        ]
      : []),
    "Targets: pickup p95 ≤ 2 s while the site has work (busy), idle cost ≤ $1 per relay-month. Cost at list prices (us-east-1, assumptions in `bench/relayPickup.ts`):",
    "",
    ...r.cost.lines.map((line) => `- polling: ${line}`),
    ...(r.push ? r.push.cost.lines.map((line) => `- push: ${line}`) : []),
    "",
  ];
}

if (require.main === module) runBench("bench:relay", main);
