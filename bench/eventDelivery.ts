import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { freePort, http, startOffline } from "../tests/support/offlineServer";
import { percentile } from "./percentile";
import { runBench } from "./runBench";
import { savedResults, withSection } from "./sections";

export const EVENT_HEADING = "## Event delivery";

/**
 * `npm run bench:events`: how long from a change to its event's first delivery attempt, against
 * the real `serverless offline` (memory store; the local stand-ins for the stream and the queue,
 * which run the same delivery code as the deployed functions), with a receiver on this machine
 * that answers at once. Calm: one change every 20 ms. Busy: 8 changes at a time. Then the cost of
 * a million events at list prices, line by line. Writes bench/event-results.json, which
 * `npm run bench -- --render` renders into BENCHMARKS.md.
 */
export interface EventResults {
  date: string;
  calm: Latency;
  busy: Latency;
  cost: { lowRateUsd: number; batchedUsd: number; perExtraHookUsd: number; lines: string[] };
}

interface Latency {
  events: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

const latency = (values: number[]): Latency => {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    events: values.length,
    p50Ms: round(percentile(sorted, 50)),
    p95Ms: round(percentile(sorted, 95)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted[sorted.length - 1]),
  };
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * List prices, us-east-1, November 2026 (the functions are arm64 at 1024 MB): Lambda $0.20 per
 * million requests and $0.0000133334 per GB-second; DynamoDB on demand $0.125 per million read
 * units and $0.625 per million write units (a transactional write costs two units per KB and
 * item); DynamoDB Streams read by Lambda: free; EventBridge custom bus $1.00 per million events;
 * SQS standard $0.40 per million requests; CloudWatch Logs $0.50 per GB. Per event with one hook
 * whose first attempt succeeds:
 * - recording, in the change's transaction: the subject's head read (1 read unit), the event item
 *   and the head (2 items × 2 units), and the change itself becoming a transaction (+1 unit, when
 *   it was one item): 1 read and 5 write units;
 * - publishEvents: one invocation per stream batch (~100 ms with PutEvents and SendMessageBatch),
 *   its Query of the hooks (1 read unit), the event on the bus;
 * - SQS: a send, a receive and a delete per batch of up to 10;
 * - deliverEvents: one invocation per queue batch (~70 ms: the receiver's answer in ~50 ms), per
 *   attempt the hook's read (1 read unit) and the attempt recorded (1 write unit);
 * - a metrics line per invocation (~300 bytes).
 * Low rate: every batch holds one event. Batched: stream batches of 100, queue batches of 10.
 */
export function eventCost(): EventResults["cost"] {
  const perMillion = (usd: number) => usd * 1e6;
  const invocation = (ms: number) => 0.2 / 1e6 + (ms / 1000) * 1 * 0.0000133334 + (300 / 1e9) * 0.5;
  const recording = (1 * 0.125 + 5 * 0.625) / 1e6;
  const bus = 1.0 / 1e6;
  const attemptStore = (0.125 + 0.625) / 1e6;
  const publish = (batch: number) => (invocation(100) + 0.125 / 1e6) / batch;
  const queue = (batch: number) => (3 * 0.4) / 1e6 / batch;
  const deliverCall = (batch: number) => invocation(70) / batch;
  const perEvent = (streamBatch: number, queueBatch: number) =>
    recording + bus + publish(streamBatch) + queue(queueBatch) + deliverCall(queueBatch) + attemptStore;
  const perExtraHook = queue(1) + deliverCall(1) + attemptStore;
  const usd = (value: number) => Math.round(perMillion(value) * 100) / 100;
  return {
    lowRateUsd: usd(perEvent(1, 1)),
    batchedUsd: usd(perEvent(100, 10)),
    perExtraHookUsd: usd(perExtraHook),
    lines: [
      `recording each event with its change (DynamoDB: 1 read unit, 5 write units): $${usd(recording)} per million`,
      `the event on the EventBridge bus: $${usd(bus)} per million`,
      `publishEvents (a Lambda call per stream batch, its hooks Query): $${usd(publish(1))} per million at one event a batch, $${usd(publish(100))} at 100`,
      `SQS (send, receive, delete per batch): $${usd(queue(1))} per million deliveries one a batch, $${usd(queue(10))} ten a batch`,
      `deliverEvents (a Lambda call per queue batch, ~70 ms with the receiver's answer): $${usd(deliverCall(1))} per million one a batch, $${usd(deliverCall(10))} ten a batch`,
      `each attempt's reads and record (1 read unit, 1 write unit): $${usd(attemptStore)} per million attempts`,
      "events are kept 30 days and attempts 7 (TTL): about 0.7 GB per million events, $0.18 a month at $0.25 per GB-month",
    ],
  };
}

async function measure(): Promise<{ calm: Latency; busy: Latency }> {
  const arrivals = new Map<string, number>();
  const port = await freePort();
  const receiver = createServer((request, response) => {
    const at = performance.timeOrigin + performance.now();
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const id = String(request.headers["webhook-id"]);
      if (!arrivals.has(id)) arrivals.set(id, at - Date.parse(JSON.parse(body).createdAt));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(port, "127.0.0.1", resolve));
  const server = await startOffline({ DEMO_NODES: "off", LOG_REQUESTS: "off" });
  try {
    const hook = await http(server.baseUrl, "POST", "/api/2.0/hooks", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `http://127.0.0.1:${port}/events`, events: ["node.added"] }),
    });
    if (hook.status !== 201) throw new Error(`POST /hooks answered ${hook.status}`);
    const change = (i: number) =>
      http(server.baseUrl, "POST", "/api/1.1/nodes", {
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: `bench-${i}` }),
      });
    // Warm the functions first: a cold start is not the delivery's time.
    for (let i = 0; i < 20; i++) await change(i);
    await sleep(500);
    arrivals.clear();
    for (let i = 0; i < 300; i++) {
      await change(i);
      await sleep(20);
    }
    await sleep(1000);
    const calm = latency([...arrivals.values()]);
    arrivals.clear();
    const queue = Array.from({ length: 800 }, (_, i) => i);
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = queue.shift(); i !== undefined; i = queue.shift()) await change(i);
      }),
    );
    await sleep(2000);
    return { calm, busy: latency([...arrivals.values()]) };
  } finally {
    await server.stop();
    receiver.close();
  }
}

/** The BENCHMARKS.md section, from the saved results (empty before the first run). */
export function eventSection(root: string): string[] {
  const r = savedResults<EventResults>(root, "event-results.json");
  if (!r) return [];
  const row = (name: string, l: Latency) => `| ${name} | ${l.events} | ${l.p50Ms} ms | ${l.p95Ms} ms | ${l.p99Ms} ms | ${l.maxMs} ms |`;
  return [
    `${EVENT_HEADING}: from a change to its first delivery attempt, and the cost per million events`,
    "",
    `Measured by \`npm run bench:events\` on ${r.date.slice(0, 10)} against \`serverless offline\` (memory store, the local stand-ins for the table's stream and the SQS queue, running the deployed functions' delivery code): from the event's \`createdAt\` (written with the change) to the receiver on this machine taking the first attempt (same clock), one hook wanting \`node.added\`, each change a \`POST /nodes\`.`,
    "",
    "| load | events | p50 | p95 | p99 | max |",
    "|---|---:|---:|---:|---:|---:|",
    row("calm (a change every 20 ms)", r.calm),
    row("busy (8 changes at a time)", r.busy),
    "",
    "Deployed, the path is the table's stream, `publishEvents`, SQS and `deliverEvents`: AWS documents a stream record reaching Lambda typically within a second and an SQS message reaching its function within a second of being sent, so the first attempt should follow a change by about 1–2 s (not measured here: no AWS account on this machine).",
    "",
    `Cost per million events at list prices (us-east-1, assumptions in \`bench/eventDelivery.ts\`), one hook, first attempts succeeding: **$${r.cost.lowRateUsd} at a low rate** (every batch of one), **$${r.cost.batchedUsd} batched** (stream batches of 100, queue batches of 10); each further hook or retry adds about $${r.cost.perExtraHookUsd} per million deliveries at a low rate.`,
    "",
    ...r.cost.lines.map((line) => `- ${line}`),
    "",
  ];
}

async function main(): Promise<void> {
  const { calm, busy } = await measure();
  const results: EventResults = { date: new Date().toISOString(), calm, busy, cost: eventCost() };
  writeFileSync(join(__dirname, "event-results.json"), `${JSON.stringify(results, null, 2)}\n`);
  const report = join(__dirname, "..", "BENCHMARKS.md");
  writeFileSync(report, withSection(readFileSync(report, "utf8"), EVENT_HEADING, eventSection(join(__dirname, ".."))));
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
}

if (require.main === module) runBench("bench:events", main);
