import { hostMachine, type MicrokernelRun, playMicrokernel, sampleMachine } from "./microkernel";

/**
 * Acts as a PXE-booting machine against a running server, the way a real one follows RackHD's
 * boot flow (DHCP/TFTP aside): fetch /profiles, follow the redirect with its MACs, then, when the
 * answer is the discovery microkernel, play it (fetch bootstrap.js, run the commands handed out
 * against a machine description, post the results, until told to reboot); when it is an install
 * profile, fetch the install script its kernel line names and run the completion commands of that
 * script (wget --spider of the completionUri, POST /notification).
 */

export type Completion = "both" | "uri" | "notification" | "none";

/** What the microkernel reports: the built-in sample machine, or this host where its tools answer. */
export type MachineSource = "sample" | "host";

export interface BootOptions {
  server: string;
  macs: string[];
  completion?: Completion;
  microkernel?: MachineSource;
  /** The microkernel's pause between polls with nothing to do. */
  pollMs?: number;
  log?: (line: string) => void;
}

export interface BootResult {
  outcome: "discovered" | "no-workflow" | "installed" | "other";
  profile: string;
  installScriptUrl?: string;
  installScript?: string;
  completionRequests: { method: string; url: string; status: number }[];
  /** The microkernel's run, when the profile was the discovery microkernel. */
  microkernel?: MicrokernelRun;
}

async function fetchText(method: string, url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method, headers });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return { status: response.status, text };
}

const CHAIN = /^chain(?:\s+--\S+)*\s+(\S+?)\?\$\{query\}/m;
/** A kernel command, less what iPXE runs on its failure (`|| goto failed`). */
const KERNEL = /^kernel\s+(.*?)(?:\s+\|\|.*)?$/m;
const SCRIPT_URL = /\b(?:ks|url|cloud-config-url|INSTALL_SCRIPT)=(\S+)/;
/** Where a cloud-init era install script reports (its installer posts `finish install SUCCESS` there when it has written the system). */
const REPORT_URL = /^REPORT_URL='([^']+)'$/m;
const SPIDER = /^wget --spider '([^']+)'/m;
const NOTIFY = /^curl .*-X POST .*'([^']+\/notification[^']*)'/m;

/** Expands iPXE's ${base-url}-style variables set earlier in the script. */
function expand(line: string, script: string): string {
  return line.replace(/\$\{([\w-]+)\}/g, (whole, name: string) => {
    const set = new RegExp(`^set ${name} (.*)$`, "m").exec(script);
    return set ? expand(set[1], script) : whole;
  });
}

export async function simulateBoot(options: BootOptions): Promise<BootResult> {
  const log = options.log ?? (() => undefined);
  const server = options.server.replace(/\/+$/, "");
  const completion = options.completion ?? "both";
  const macs = options.macs.map((mac) => mac.toLowerCase());

  log(`PXE: ${macs.join(", ")} chains ${server}/api/current/profiles`);
  const redirect = (await fetchText("GET", `${server}/api/current/profiles`)).text;
  const chain = CHAIN.exec(redirect);
  if (!chain) throw new Error(`The first profile is not a MAC-collecting redirect:\n${redirect}`);
  const profileUrl = `${chain[1]}?${macs.map((mac) => `macs=${encodeURIComponent(mac)}`).join("&")}`;
  log(`iPXE: chain ${profileUrl}`);
  const profile = (await fetchText("GET", profileUrl)).text;
  const result: BootResult = { outcome: "other", profile, completionRequests: [] };

  if (/^echo Starting the discovery microkernel/m.test(profile)) {
    return { ...result, outcome: "discovered", microkernel: await runMicrokernel(profile, macs[0], options, log) };
  }
  if (/^echo Discovered node/m.test(profile)) {
    log(`iPXE: ${/^echo (Discovered node .*)$/m.exec(profile)![1]}; leaving the network boot`);
    return { ...result, outcome: "discovered" };
  }
  if (/^echo Unable to locate active workflow\./m.test(profile)) {
    log("iPXE: Unable to locate active workflow.; leaving the network boot");
    return { ...result, outcome: "no-workflow" };
  }
  const kernel = KERNEL.exec(profile);
  if (!kernel) {
    log(`iPXE: no kernel to boot:\n${profile}`);
    return result;
  }
  const kernelLine = expand(kernel[1], profile);
  const scriptUrl = SCRIPT_URL.exec(kernelLine)?.[1];
  log(`iPXE: kernel ${kernelLine.split(" ")[0]}`);
  if (!scriptUrl) throw new Error(`The kernel line names no install script: ${kernelLine}`);
  log(`installer: fetch ${scriptUrl}`);
  const installScript = (await fetchText("GET", scriptUrl)).text;
  result.installScriptUrl = scriptUrl;
  result.installScript = installScript;
  log("installer: installing (simulated)");

  const spider = SPIDER.exec(installScript)?.[1];
  const notify = NOTIFY.exec(installScript)?.[1];
  if (spider && (completion === "both" || completion === "uri")) {
    const { status } = await fetchText("HEAD", spider);
    result.completionRequests.push({ method: "HEAD", url: spider, status });
    log(`installer: wget --spider ${spider} -> ${status}`);
  }
  if (notify && (completion === "both" || completion === "notification")) {
    const { status } = await fetchText("POST", notify, { "content-type": "application/json" });
    result.completionRequests.push({ method: "POST", url: notify, status });
    log(`installer: POST ${notify} -> ${status}`);
  }
  const report = REPORT_URL.exec(installScript)?.[1];
  if (report && (completion === "both" || completion === "notification")) {
    const body = JSON.stringify({
      event_type: "finish",
      origin: "installer",
      name: "install",
      result: "SUCCESS",
      description: "written (simulated)",
    });
    const response = await fetch(report, { method: "POST", headers: { "content-type": "application/json" }, body });
    result.completionRequests.push({ method: "POST", url: report, status: response.status });
    log(`installer: report finish install SUCCESS -> ${response.status}`);
  }
  return { ...result, outcome: "installed" };
}

/** Boots the microkernel the profile names: its kernel line says where the API is; bootstrap.js, where to poll. */
async function runMicrokernel(profile: string, mac: string, options: BootOptions, log: (line: string) => void): Promise<MicrokernelRun> {
  const kernelLine = expand(KERNEL.exec(profile)?.[1] ?? "", profile);
  const apiBase = /\bAPI_BASE=(\S+)/.exec(kernelLine)?.[1];
  if (!apiBase) throw new Error(`The microkernel's kernel line names no API_BASE: ${kernelLine}`);
  log(`iPXE: kernel ${kernelLine.split(" ")[0]} (the discovery microkernel)`);
  const bootstrapUrl = `${apiBase}/tasks/bootstrap.js?macAddress=${encodeURIComponent(mac)}`;
  log(`microkernel: curl ${bootstrapUrl} | node`);
  const bootstrap = (await fetchText("GET", bootstrapUrl)).text;
  const tasksUrl = /^const tasksUrl = (".*");$/m.exec(bootstrap)?.[1];
  if (!tasksUrl) throw new Error(`bootstrap.js names no tasks URL:\n${bootstrap}`);
  const machine = options.microkernel === "host" ? hostMachine(mac) : sampleMachine(mac);
  const run = await playMicrokernel({ tasksUrl: JSON.parse(tasksUrl) as string, machine, log, pollMs: options.pollMs ?? 1000 });
  log(`microkernel: ${run.exchanges} command sets run and reported${run.rebooted ? "; rebooting" : ""}`);
  return run;
}

const USAGE = `usage: npm run node -- boot --mac <mac> [--mac <mac> ...] [--server http://localhost:3000]
                                [--completion both|uri|notification|none] [--microkernel sample|host]`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== "boot") {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const macs: string[] = [];
  let server = process.env.SERVER ?? `http://localhost:${process.env.PORT ?? 3000}`;
  let completion: Completion = "both";
  let microkernel: MachineSource = "sample";
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (value === undefined) {
      process.stderr.write(`${flag} needs a value\n${USAGE}\n`);
      return 2;
    }
    if (flag === "--mac") macs.push(value);
    else if (flag === "--server") server = value;
    else if (flag === "--completion" && ["both", "uri", "notification", "none"].includes(value)) completion = value as Completion;
    else if (flag === "--microkernel" && ["sample", "host"].includes(value)) microkernel = value as MachineSource;
    else {
      process.stderr.write(`unknown option ${flag} ${value}\n${USAGE}\n`);
      return 2;
    }
  }
  if (macs.length === 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    const result = await simulateBoot({ server, macs, completion, microkernel, log: (line) => process.stdout.write(`${line}\n`) });
    process.stdout.write(`result: ${result.outcome}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`boot failed: ${(error as Error).message}\n`);
    return 1;
  }
}

if (require.main === module) void main(process.argv.slice(2)).then((code) => process.exit(code));
