import { execFileSync, spawn } from "node:child_process";
import { closeSync, constants, existsSync, openSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The lab's hands on this host: commands in its network namespace, processes it leaves running
 * (detached, each with its log, found again by `down` through the namespace), and what the host
 * has. Everything the lab runs goes through `inNamespace`, so nothing it starts touches the host's
 * own network.
 */

/** Runs a command and answers its output; a failure says which command and what it printed. */
export function run(argv: readonly string[]): string {
  try {
    return execFileSync(argv[0], argv.slice(1), { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`${argv.join(" ")} failed: ${(stderr ?? String(error)).trim()}`);
  }
}

/** `argv` run inside network namespace `namespace` (`ip netns exec` execs it: its pid is the program's). */
export const inNamespace = (namespace: string, argv: readonly string[]): string[] => ["ip", "netns", "exec", namespace, ...argv];

/** Starts `argv` detached from this process, its output appended to `log`; answers its pid. */
export function detach(argv: readonly string[], log: string, env: Record<string, string> = {}): number {
  const out = openSync(log, "a");
  const child = spawn(argv[0], argv.slice(1), { detached: true, stdio: ["ignore", out, out], env: { ...process.env, ...env } });
  closeSync(out);
  child.unref();
  if (child.pid === undefined) throw new Error(`${argv[0]} did not start`);
  return child.pid;
}

/** tsx's command line: the lab's own processes (the relay, the API bridge, the Redfish BMCs) are this repository's TypeScript. */
export const tsx = (script: string, args: readonly string[]): string[] => [
  process.execPath,
  join(dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs"),
  script,
  ...args,
];

/** The namespaces on this host (`ip netns list`). */
export const namespaces = (): string[] =>
  run(["ip", "netns", "list"])
    .split("\n")
    .map((line) => line.split(" ")[0])
    .filter(Boolean);

/** The processes running in `namespace`, each with its command line. */
export function namespacePids(namespace: string): { pid: number; command: string }[] {
  if (!namespaces().includes(namespace)) return [];
  return run(["ip", "netns", "pids", namespace])
    .split("\n")
    .filter(Boolean)
    .map((pid) => ({ pid: Number(pid), command: commandOf(Number(pid)) }));
}

/** A process's command line (its arguments joined by spaces), or "" once it is gone. */
export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** Whether process `pid` has ended: gone, or a zombie no one has reaped yet (which `kill -0` still finds). */
export function processEnded(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** Ends the processes: TERM, a few seconds, then KILL for those left; answers how many there were. */
export async function stopProcesses(pids: readonly number[]): Promise<number> {
  const alive = (pid: number) => commandOf(pid) !== "";
  const signal = (pid: number, name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // gone already
    }
  };
  for (const pid of pids) signal(pid, "SIGTERM");
  for (let tries = 0; tries < 30 && pids.some(alive); tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const pid of pids.filter(alive)) signal(pid, "SIGKILL");
  return pids.length;
}

/**
 * Whether QEMU can use KVM here, for a plain machine and for one with SMM (the Secure Boot firmware
 * needs it). /dev/kvm opening is not enough, nor QEMU starting with it: on this project's nested
 * hosts both do, and then iPXE resets or hangs as soon as it runs ("starting execution..", seen
 * 2026-11-28), and QEMU refuses SMM ("System Management Mode not supported by this hypervisor").
 * So a machine is booted under KVM as the lab's are: SeaBIOS and iPXE on QEMU's user network,
 * counted as working once iPXE has its DHCP address (a second or two with KVM); it has 6 s.
 */
export async function kvmSupport(qemu: string): Promise<{ kvm: boolean; smm: boolean }> {
  try {
    closeSync(openSync("/dev/kvm", constants.O_RDWR));
  } catch {
    return { kvm: false, smm: false };
  }
  /** QEMU under KVM with `args`: it works when its console shows `ready` in time or, with no `ready`, when it is still up at the end. */
  const probe = (args: string[], ready: RegExp | undefined, ms: number) =>
    new Promise<boolean>((resolve) => {
      const child = spawn(
        qemu,
        ["-accel", "kvm", "-m", "128", "-nodefaults", "-display", "none", "-monitor", "none", "-no-reboot", ...args],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let output = "";
      const end = (result: boolean) => {
        clearTimeout(timer);
        child.kill("SIGKILL");
        resolve(result);
      };
      const timer = setTimeout(() => end(ready === undefined), ms);
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString("latin1");
        if (ready?.test(output)) end(true);
      });
      child.once("exit", () => end(false));
      child.once("error", () => end(false));
    });
  const [kvm, smm] = await Promise.all([
    probe(["-boot", "n", "-nic", "user,model=e1000", "-serial", "stdio"], /net0: 10\.0\.2\.15/, 6_000),
    probe(["-machine", "q35,smm=on", "-S"], undefined, 1_500),
  ]);
  return { kvm, smm: kvm && smm };
}

/** What `up` needs and this host lacks, each with the package it comes in. */
export function missingTools(files: Record<string, string>): string[] {
  return Object.entries(files)
    .filter(([, file]) => !existsSync(file))
    .map(([what, file]) => `${file} (${what})`);
}
