import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * What binds first as a fleet grows (issue 28): one machine's life, call by call (bench:boot-path
 * run with LOG_LEVEL=debug keeps each DynamoDB call with its partition keys and item sizes), turned
 * into its demand on each of AWS's default limits, and the machines per hour each limit allows.
 */
export const LIMITS_HEADING = "## Ten thousand machines, and fifty: what binds first";

/** A machine's reads and writes on one kind of partition key. */
export interface KindLoad {
  kind: string;
  /** How the kind's keys spread: over 16 shards, one per node, or one for the whole fleet. */
  spread: "shards" | "per-node" | "single";
  readUnits: number;
  writeUnits: number;
}

interface Touched {
  pk: string;
  bytes: number;
}

const SHARDED = /^(NODE|WF|LKP|INSTANCE|INSTALLREPORT)#\d+$|^LIST(NODE|WF)#\d+$/;
const PER_NODE = /^(EVENT|NODEWF|NODECAT|NODELKP|TAGNODE|NODESKU)#/;

function kindOf(pk: string): { kind: string; spread: KindLoad["spread"] } {
  if (SHARDED.test(pk)) return { kind: pk.replace(/#\d+$/, "#<shard>"), spread: "shards" };
  if (PER_NODE.test(pk)) return { kind: pk.replace(/#.*$/, "#<node>"), spread: "per-node" };
  return { kind: pk, spread: "single" };
}

/**
 * The debug lines of a service log (`"msg":"dynamodb"`), summed per kind of key: a call's units
 * are split over the items it touches by their size (a key only: as 1 KB).
 */
export function loadByKind(log: string): KindLoad[] {
  const kinds = new Map<string, KindLoad>();
  for (const line of log.split("\n")) {
    if (!line.includes('"msg":"dynamodb"')) continue;
    const entry = JSON.parse(line.slice(line.indexOf("{"))) as { touched: Touched[]; read: number; write: number };
    const weights = entry.touched.map((item) => Math.max(1, Math.ceil(item.bytes / 1024)));
    const total = weights.reduce((sum, weight) => sum + weight, 0) || 1;
    entry.touched.forEach((item, at) => {
      const { kind, spread } = kindOf(item.pk);
      const load = kinds.get(kind) ?? { kind, spread, readUnits: 0, writeUnits: 0 };
      load.readUnits += (entry.read * weights[at]) / total;
      load.writeUnits += (entry.write * weights[at]) / total;
      kinds.set(kind, load);
    });
  }
  return [...kinds.values()].sort((a, b) => b.writeUnits + b.readUnits / 3 - (a.writeUnits + a.readUnits / 3));
}

/**
 * AWS's default limits (us-east-1, November 2026) that a fleet's boot and install meet, per
 * second: the HTTP API's account throttle, Lambda's concurrent executions, an on-demand table's
 * default maximum throughput (a new table starts at 4,000 writes and 12,000 reads a second and
 * doubles to its peak), and DynamoDB's per-partition ceiling.
 */
export const LIMITS = {
  httpApiRequests: 10_000,
  lambdaConcurrency: 1_000,
  tableWriteUnits: 40_000,
  tableReadUnits: 40_000,
  newTableWriteUnits: 4_000,
  newTableReadUnits: 12_000,
  partitionWriteUnits: 1_000,
  partitionReadUnits: 3_000,
};

/** Mean duration of a request deployed (DynamoDB's calls in-Region are a few ms each): an assumption, stated. */
export const MEAN_REQUEST_SECONDS = 0.03;
const SHARDS = 16;

export interface MachineDemand {
  requests: number;
  readUnits: number;
  writeUnits: number;
  kinds: KindLoad[];
}

interface Bound {
  limit: string;
  /** What one machine's discovery and install asks of it. */
  demand: number;
  unit: string;
  /** The limit per second. */
  perSecond: number;
}

/** Each limit with a machine's demand on it; the machines an hour it allows is 3,600 × perSecond / demand. */
export function bounds(machine: MachineDemand): Bound[] {
  const hottest = (spread: KindLoad["spread"], units: "readUnits" | "writeUnits") =>
    machine.kinds.filter((kind) => kind.spread === spread).sort((a, b) => b[units] - a[units])[0];
  const single = hottest("single", "writeUnits");
  const singleRead = hottest("single", "readUnits");
  const sharded = hottest("shards", "writeUnits");
  return [
    { limit: "HTTP API requests a second (account)", demand: machine.requests, unit: "requests", perSecond: LIMITS.httpApiRequests },
    {
      limit: `Lambda concurrency (account), at ${MEAN_REQUEST_SECONDS * 1000} ms a request`,
      demand: machine.requests * MEAN_REQUEST_SECONDS,
      unit: "execution-seconds",
      perSecond: LIMITS.lambdaConcurrency,
    },
    {
      limit: "table write units a second (on-demand default maximum)",
      demand: machine.writeUnits,
      unit: "write units",
      perSecond: LIMITS.tableWriteUnits,
    },
    {
      limit: "table write units a second, a new on-demand table",
      demand: machine.writeUnits,
      unit: "write units",
      perSecond: LIMITS.newTableWriteUnits,
    },
    {
      limit: "table read units a second, a new on-demand table",
      demand: machine.readUnits,
      unit: "read units",
      perSecond: LIMITS.newTableReadUnits,
    },
    ...(sharded
      ? [
          {
            limit: `one partition's writes: \`${sharded.kind}\` (the busiest spread kind, ÷ ${SHARDS})`,
            demand: sharded.writeUnits / SHARDS,
            unit: "write units",
            perSecond: LIMITS.partitionWriteUnits,
          },
        ]
      : []),
    ...(single
      ? [
          {
            limit: `one partition's writes: \`${single.kind}\` (the busiest single key)`,
            demand: single.writeUnits,
            unit: "write units",
            perSecond: LIMITS.partitionWriteUnits,
          },
        ]
      : []),
    ...(singleRead
      ? [
          {
            limit: `one partition's reads: \`${singleRead.kind}\` (the most read single key)`,
            demand: singleRead.readUnits,
            unit: "read units",
            perSecond: LIMITS.partitionReadUnits,
          },
        ]
      : []),
  ].sort((a, b) => a.perSecond / a.demand - b.perSecond / b.demand);
}

const whole = (value: number) => Math.round(value).toLocaleString("en-US");
const share = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} %`;

/** The section, from the fleet's and the boot path's saved results (empty before both ran). */
export function limitsSection(root: string): string[] {
  let fleet: {
    report: {
      requestsPerMachine: number;
      installed: number;
      requests: number;
      dynamodb?: { perInstall: { readUnits: number; writeUnits: number } };
    };
  };
  let bootPath: { current?: { kinds?: KindLoad[] } };
  try {
    fleet = JSON.parse(readFileSync(join(root, "bench", "fleet-results.json"), "utf8"));
    bootPath = JSON.parse(readFileSync(join(root, "bench", "boot-path-results.json"), "utf8"));
  } catch {
    return [];
  }
  const kinds = bootPath.current?.kinds;
  const perInstall = fleet.report.dynamodb?.perInstall;
  if (!kinds || !perInstall) return [];
  const machine: MachineDemand = {
    requests: fleet.report.requests / Math.max(1, fleet.report.installed),
    readUnits: perInstall.readUnits,
    writeUnits: perInstall.writeUnits,
    kinds,
  };
  const rows = bounds(machine);
  const perHour = (bound: Bound) => (3600 * bound.perSecond) / bound.demand;
  const load = (bound: Bound, machines: number, seconds: number) => share((100 * (machines / seconds) * bound.demand) / bound.perSecond);
  return [
    LIMITS_HEADING,
    "",
    `From the fleet above (a machine's discovery and install: ${machine.requests.toFixed(1)} requests, ${perInstall.readUnits} read and ${perInstall.writeUnits} write units, the swarm's operator requests included) and one machine's calls by partition key (\`LOG_LEVEL=debug npm run bench:boot-path\`: each call's units split over the items it touches by their size), against AWS's default limits in us-east-1. **A fleet installed over an hour**: 10,000 machines are 2.8 a second, 50,000 are 13.9. **A boot storm** (a hall's power restored: every machine within 5 minutes) is twelve times that.`,
    "",
    "| limit (default) | a second | one machine asks | machines an hour it allows | 10,000 in an hour | 50,000 in an hour | 10,000 in 5 minutes |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (bound) =>
        `| ${bound.limit} | ${whole(bound.perSecond)} | ${bound.demand < 10 ? bound.demand.toFixed(2) : whole(bound.demand)} ${bound.unit} | ${whole(perHour(bound))} | ${load(bound, 10_000, 3600)} | ${load(bound, 50_000, 3600)} | ${load(bound, 10_000, 300)} |`,
    ),
    "",
    `**What binds first: ${rows[0].limit}**, at about ${whole(perHour(rows[0]))} machines an hour. ${rows[0].limit.startsWith("table write units a second, a new") ? "It is a starting point, not a ceiling: an on-demand table doubles what it serves to its previous peak, so a stage that ran a fleet before, or whose table is given warm throughput before a storm (CloudFormation's `WarmThroughput` on the table), moves past it; the next bound is then the ones below." : ""} Every limit in the table is a default that AWS raises on request, except the per-partition ceilings: those the keys must spread, and they do (the busiest spread kind's partition carries a sixteenth of its load; the busiest single keys are read or written once or twice a machine).`,
    "",
    "Per kind of key, one machine's discovery and install (read and write units; `<shard>`: 16 keys, `<node>`: a key per machine):",
    "",
    "| key | spread | read units | write units |",
    "|---|---|---:|---:|",
    ...kinds
      .slice(0, 14)
      .map((kind) => `| \`${kind.kind}\` | ${kind.spread} | ${kind.readUnits.toFixed(1)} | ${kind.writeUnits.toFixed(1)} |`),
    "",
  ];
}
