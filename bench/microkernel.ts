/**
 * npm run bench:microkernel [-- --baseline --kernel <file> --initrd <file> --how <words>] — the
 * discovery microkernel's size (kernel + initrd) and its time from the kernel's start (its
 * "Linux version" line on the serial console) to its first request to the service, in QEMU
 * (software emulation, as the boot tier runs it) on a virtio-net machine, which both the old
 * virtio-only microkernel and the generic one can discover. Each is booted three times; the
 * median is kept. Without --kernel/--initrd it builds the current one. Figures are saved, never asserted.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildMicrokernel } from "../microkernel/cli";
import { runBench } from "./runBench";
import { withSection } from "./sections";

export const MICROKERNEL_HEADING = "## The discovery microkernel: size and time to its first request";
const RESULTS = "bench/microkernel-results.json";
const ROOT = join(__dirname, "..");
const MiB = 2 ** 20;
const RUNS = 3;

export interface MicrokernelRun {
  kernelBytes: number;
  initrdBytes: number;
  /** Each boot's time from the kernel's first line to the first request, in ms. */
  firstRequestMs: number[];
  /** The median of those. */
  medianMs: number;
}

interface MicrokernelResults {
  baseline?: { date: string; how: string; run: MicrokernelRun };
  current?: { date: string; how: string; run: MicrokernelRun };
}

/** One boot: QEMU with the kernel and initrd given directly; answers the time from "Linux version" to the first request. */
async function timeOneBoot(kernel: string, initrd: string): Promise<number> {
  let kernelStarted = 0;
  let firstRequest = 0;
  const server = createServer((request, response) => {
    if (firstRequest === 0) firstRequest = performance.now();
    // Told to reboot at once: the boot ends there (QEMU runs with -no-reboot).
    response.end(request.method === "GET" ? JSON.stringify({ tasks: [{ cmd: "sudo reboot" }] }) : "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const args = ["-accel", "tcg", "-m", "512", "-smp", "1", "-monitor", "none", "-no-reboot", "-nographic", "-machine", "pc"];
  args.push("-kernel", kernel, "-initrd", initrd, "-nic", "user,model=virtio-net-pci,mac=52:54:00:be:0c:01");
  args.push(
    "-append",
    `no_timer_check console=ttyS0,115200n8 BOOTIF=01-52-54-00-be-0c-01 API_BASE=http://10.0.2.2:${port}/api/current NODE_ID=bench`,
  );
  const child: ChildProcess = spawn("qemu-system-x86_64", args, { stdio: ["ignore", "pipe", "ignore"] });
  let serial = "";
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no request within 5 minutes:\n${serial.slice(-3000)}`)), 300_000);
      child.stdout!.on("data", (chunk: Buffer) => {
        serial += chunk.toString("latin1");
        if (kernelStarted === 0 && serial.includes("Linux version")) kernelStarted = performance.now();
      });
      child.once("exit", () => {
        clearTimeout(timer);
        if (firstRequest > 0) resolve();
        else reject(new Error(`QEMU exited before any request:\n${serial.slice(-3000)}`));
      });
    });
    return Math.round(firstRequest - kernelStarted);
  } finally {
    child.kill("SIGKILL");
    server.close();
  }
}

export async function microkernelFigures(kernel: string, initrd: string): Promise<MicrokernelRun> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) times.push(await timeOneBoot(kernel, initrd));
  return {
    kernelBytes: statSync(kernel).size,
    initrdBytes: statSync(initrd).size,
    firstRequestMs: times,
    medianMs: [...times].sort((a, b) => a - b)[Math.floor(RUNS / 2)],
  };
}

export function microkernelSection(root: string): string[] {
  let results: MicrokernelResults;
  try {
    results = JSON.parse(readFileSync(join(root, RESULTS), "utf8")) as MicrokernelResults;
  } catch {
    return [];
  }
  const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
  const kinds = (["baseline", "current"] as const).filter((kind) => results[kind]);
  return [
    MICROKERNEL_HEADING,
    "",
    `Measured by \`npm run bench:microkernel\`: the kernel and initrd as the discovery profile loads them, booted ${RUNS} times each in QEMU (software emulation, no KVM, one CPU, as the boot tier runs it) on a virtio-net machine, from the kernel's first console line to its first request to the service (the median kept). The firmware's own time (iPXE, the files' download) is not in it.`,
    "",
    ...kinds.map((kind) => `- ${kind} (${results[kind]!.date.slice(0, 10)}): ${results[kind]!.how}`),
    "",
    "| microkernel | kernel | initrd | together | kernel start → first request (median) | each boot |",
    "|---|---:|---:|---:|---:|---|",
    ...kinds.map((kind) => {
      const run = results[kind]!.run;
      return `| ${kind} | ${mib(run.kernelBytes)} | ${mib(run.initrdBytes)} | ${mib(run.kernelBytes + run.initrdBytes)} | ${(run.medianMs / 1000).toFixed(1)} s | ${run.firstRequestMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")} |`;
    }),
    "",
  ];
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { baseline: { type: "boolean" }, kernel: { type: "string" }, initrd: { type: "string" }, how: { type: "string" } },
  });
  const files = values.kernel && values.initrd ? { kernel: values.kernel, initrd: values.initrd } : buildMicrokernel();
  const kind = values.baseline ? "baseline" : "current";
  let results: MicrokernelResults = {};
  try {
    results = JSON.parse(readFileSync(join(ROOT, RESULTS), "utf8")) as MicrokernelResults;
  } catch {
    // the first run
  }
  const run = await microkernelFigures(files.kernel, files.initrd);
  results[kind] = { date: new Date().toISOString(), how: values.how ?? results[kind]?.how ?? "", run };
  // Lists of numbers on one line, as the formatter (Biome) writes them.
  const text = JSON.stringify(results, null, 2).replace(
    /\[\n\s*([\d,\n ]+?)\n\s*\]/g,
    (_, numbers: string) => `[${numbers.split(/,\s*/).join(", ")}]`,
  );
  writeFileSync(join(ROOT, RESULTS), `${text}\n`);
  const file = join(ROOT, "BENCHMARKS.md");
  writeFileSync(file, withSection(readFileSync(file, "utf8"), MICROKERNEL_HEADING, microkernelSection(ROOT)));
  process.stdout.write(`${microkernelSection(ROOT).join("\n")}\n`);
}

if (require.main === module) runBench("bench:microkernel", main);
