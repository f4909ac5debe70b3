import { createSocket } from "node:dgram";
import { readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { startIpmiSim } from "../lab/ipmiSim";
import { LEASE_MS } from "../lib/provisioning/relays/job";
import { freePort, http, startOffline } from "../tests/support/offlineServer";
import { startRelayProcess } from "../tests/support/relayProcess";
import { percentile } from "./percentile";
import { runBench } from "./runBench";
import { savedResults, withSection } from "./sections";

export const HOSTILE_HEADING = "## Relay under a hostile site";

/**
 * `npm run bench:relay-hostile` (issue 50): a site's relay (the built dist/relay.cjs, serving HTTP
 * and TFTP) while one host of its site sends 1,000 hostile requests, against a quiet run first (the
 * baseline, in the same run). Measured: the relay's resident memory (VmRSS and its peak, VmHWM,
 * from /proc) and how long its jobs wait for it (pickup: from the request that made a job to the
 * relay's lease; the jobs are real IPMI status reads of an ipmi_sim BMC, 0.5–1.5 s apart). Targets:
 * peak ≤ 150 MB, pickup p95 ≤ 2 s. Writes bench/relay-hostile-results.json, which `npm run bench`
 * renders into BENCHMARKS.md.
 */
interface Phase {
  jobs: number;
  pickupP50Ms: number;
  pickupP95Ms: number;
  pickupMaxMs: number;
  /** The relay's resident memory at the end of the phase, and its peak so far (MB). */
  rssMb: number;
  peakRssMb: number;
}

export interface HostileResults {
  date: string;
  attack: Record<string, number>;
  quiet: Phase;
  hostile: Phase;
  /** What the relay answered the attack: TFTP error packets by text, HTTP statuses. */
  answers: Record<string, number>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PASSWORD = "Bench-Bmc-1";

/** VmRSS and VmHWM of a process, in MB. */
function memoryOf(pid: number): { rssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb("VmRSS") / 1024), peakRssMb: Math.round(kb("VmHWM") / 1024) };
}

async function main(): Promise<void> {
  const server = await startOffline({ DEMO_NODES: "off", LOG_REQUESTS: "off" });
  const bmc = await startIpmiSim(PASSWORD);
  const call = (method: string, path: string, body?: unknown) =>
    http(server.baseUrl, method, `/api/1.1${path}`, {
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const stopAll: (() => void)[] = [];
  try {
    // A 1 MiB file every machine would fetch alike: what the held transfers ask for.
    await http(server.baseUrl, "PUT", "/api/1.1/files/hostile.bin", {
      headers: { "content-type": "application/octet-stream" },
      body: Buffer.alloc(1 << 20, 7),
    });
    const site = (await call("POST", "/sites", { name: "hostile" })).body.id;
    const { token } = (await call("POST", `/sites/${site}/relays`, {})).body;
    const node = (await call("POST", "/nodes", { name: "bench", identifiers: ["52:54:00:be:12:01"] })).body.id;
    const config = { host: "127.0.0.1", port: String(bmc.port), user: "admin", password: PASSWORD };
    await call("POST", `/nodes/${node}/obm`, { service: "ipmi-obm-service", config });
    await call("PUT", `/nodes/${node}/site`, { site });
    const [httpPort, tftpPort] = [await freePort(), await freePort()];
    const relay = startRelayProcess(server.baseUrl, token, [
      "--listen",
      `127.0.0.1:${httpPort}`,
      "--public-url",
      `http://127.0.0.1:${httpPort}`,
      "--tftp",
      `127.0.0.1:${tftpPort}`,
    ]);
    stopAll.push(() => relay.stop());
    await relay.waitFor("tftp: serving");
    const pid = relay.child.pid as number;

    const pickups = async (count: number): Promise<number[]> => {
      const ids: string[] = [];
      for (let i = 0; i < count; i += 1) {
        await sleep(500 + Math.random() * 1_000);
        ids.push((await call("POST", `/nodes/${node}/power`, { action: "status" })).body.id);
      }
      await sleep(3_000);
      const jobs = (await call("GET", `/sites/${site}/jobs`)).body as { id: string; createdAt: string; lease?: { until: string } }[];
      return jobs
        .filter((job) => ids.includes(job.id) && job.lease)
        .map((job) => Date.parse(job.lease!.until) - LEASE_MS - Date.parse(job.createdAt));
    };
    const phase = (values: number[]): Phase => {
      const sorted = [...values].sort((a, b) => a - b);
      return {
        jobs: values.length,
        pickupP50Ms: percentile(sorted, 50),
        pickupP95Ms: percentile(sorted, 95),
        pickupMaxMs: sorted[sorted.length - 1],
        ...memoryOf(pid),
      };
    };

    await pickups(2); // the relay starts idle: two jobs first, unmeasured, make it busy
    const quiet = phase(await pickups(30));

    // The attack: 1,000 requests from one host of the site, spread over about 20 s, beside the jobs.
    const answers: Record<string, number> = {};
    const count = (what: string) => {
      answers[what] = (answers[what] ?? 0) + 1;
    };
    const sockets: ReturnType<typeof createSocket>[] = [];
    const tftp = (name: string, read: boolean) => {
      const socket = createSocket("udp4");
      sockets.push(socket);
      // A hostile client reads the first answer and never acknowledges: a transfer held to its retries.
      if (read)
        socket.once("message", (message) =>
          count(
            message.readUInt16BE(0) === 5 ? `tftp error: ${message.subarray(4).toString("latin1").replace(/\0.*$/s, "")}` : "tftp data",
          ),
        );
      socket.send(Buffer.from(`\0\u0001${name}\0octet\0blksize\x001468\0timeout\x00255\0`, "latin1"), tftpPort, "127.0.0.1");
    };
    const post8mb = () =>
      new Promise<void>((resolve) => {
        const socket = connect(httpPort, "127.0.0.1", () => {
          socket.write(`POST /api/current/notification HTTP/1.1\r\nHost: x\r\nContent-Length: ${8 << 20}\r\n\r\n`);
          socket.write(Buffer.alloc(1 << 20, 1));
        });
        socket.once("data", (chunk) => count(`http ${/^HTTP\/1\.1 (\d+)/.exec(chunk.toString())?.[1] ?? "?"}`));
        socket.on("error", () => undefined);
        stopAll.push(() => socket.destroy());
        resolve();
      });
    const slowConnection = () => {
      const socket = connect(httpPort, "127.0.0.1", () => socket.write("GET /common/hostile.bin HTTP/1.1\r\n"));
      socket.on("error", () => undefined);
      stopAll.push(() => socket.destroy());
    };
    const attack = {
      "TFTP reads of distinct names": 400,
      "TFTP reads of a 1 MiB file, never acknowledged": 200,
      "TFTP reads of other machines' GRUB scripts": 200,
      "HTTP POSTs of 8 MB bodies": 100,
      "HTTP connections that never finish their request": 100,
    };
    const requests: (() => unknown)[] = [
      ...Array.from({ length: attack["TFTP reads of distinct names"] }, (_, i) => () => tftp(`common/junk-${i}-${"x".repeat(100)}`, true)),
      ...Array.from({ length: attack["TFTP reads of a 1 MiB file, never acknowledged"] }, () => () => tftp("common/hostile.bin", true)),
      ...Array.from(
        { length: attack["TFTP reads of other machines' GRUB scripts"] },
        (_, i) => () =>
          tftp(`grub/machine/52:54:00:66:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`, true),
      ),
      ...Array.from({ length: attack["HTTP POSTs of 8 MB bodies"] }, () => post8mb),
      ...Array.from({ length: attack["HTTP connections that never finish their request"] }, () => slowConnection),
    ].sort(() => Math.random() - 0.5);
    const attacking = (async () => {
      for (const request of requests) {
        await request();
        await sleep(20);
      }
    })();
    const hostile = phase(await pickups(30));
    await attacking;
    const after = memoryOf(pid);
    hostile.peakRssMb = after.peakRssMb;
    for (const socket of sockets) socket.close();
    const results: HostileResults = { date: new Date().toISOString(), attack, quiet, hostile, answers };
    writeFileSync(join(__dirname, "relay-hostile-results.json"), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(
      join(__dirname, "..", "BENCHMARKS.md"),
      withSection(readFileSync(join(__dirname, "..", "BENCHMARKS.md"), "utf8"), HOSTILE_HEADING, hostileSection(join(__dirname, ".."))),
    );
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } finally {
    for (const stop of stopAll) stop();
    await bmc.stop();
    await server.stop();
  }
}

/** The BENCHMARKS.md section, from the saved results (empty before the first run). */
export function hostileSection(root: string): string[] {
  const r = savedResults<HostileResults>(root, "relay-hostile-results.json");
  if (!r) return [];
  const total = Object.values(r.attack).reduce((sum, n) => sum + n, 0);
  const row = (name: string, p: Phase) =>
    `| ${name} | ${p.jobs} | ${p.pickupP50Ms} ms | ${p.pickupP95Ms} ms | ${p.pickupMaxMs} ms | ${p.rssMb} MB | ${p.peakRssMb} MB |`;
  return [
    HOSTILE_HEADING,
    "",
    `Measured by \`npm run bench:relay-hostile\` on ${r.date.slice(0, 10)} (issue 50): the built relay (\`dist/relay.cjs\`, HTTP and TFTP on loopback) against \`serverless offline\`, its jobs real IPMI status reads of an \`ipmi_sim\` BMC, 0.5–1.5 s apart; first quiet (the baseline), then while one host of the site sends ${total.toLocaleString("en")} hostile requests over about 20 s: ${Object.entries(
      r.attack,
    )
      .map(([what, n]) => `${n} ${what}`)
      .join(", ")} (every TFTP client asks a 255 s wait).`,
    "",
    "| phase | jobs | pickup p50 | p95 | max | relay RSS after | peak RSS |",
    "|---|---:|---:|---:|---:|---:|---:|",
    row("quiet (baseline)", r.quiet),
    row("under the attack", r.hostile),
    "",
    `Targets: peak RSS ≤ 150 MB, pickup p95 ≤ 2 s under the attack. What the relay answered: ${Object.entries(r.answers)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([what, n]) => `${what} × ${n}`)
      .join("; ")}.`,
    "",
  ];
}

if (require.main === module) runBench("bench:relay-hostile", main);
