import { execFile, execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { promisify } from "node:util";
import { inNamespace } from "./host";

const run = promisify(execFile);

/** A new ed25519 key pair at `path` (and `path`.pub); answers the public key's line. */
export function newSshKey(path: string): string {
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path]);
  return readFileSync(`${path}.pub`, "utf8").trim();
}

/**
 * Runs `command` on an installed machine as `user`, logging in with `key` (the one the node's
 * user-data gave), and answers its standard output. Not a sync call: a VM beside it may be writing
 * its serial console to this process.
 */
export async function sshRun(key: string, target: { host: string; port?: number; user: string }, command: string): Promise<string> {
  const { stdout } = await run(
    "ssh",
    [
      "-i",
      key,
      "-p",
      String(target.port ?? 22),
      "-o",
      "StrictHostKeyChecking=no",
      "-o",
      "UserKnownHostsFile=/dev/null",
      "-o",
      "ConnectTimeout=20",
      `${target.user}@${target.host}`,
      command,
    ],
    { timeout: 120_000 },
  );
  return stdout;
}

/** The node's user-data: its host name, and a user `ops` (sudo without a password) who logs in with `publicKey`. */
export const opsUserData = (hostname: string, publicKey: string): string =>
  `#cloud-config\nhostname: ${hostname}\nusers:\n  - name: ops\n    shell: /bin/bash\n    sudo: "ALL=(ALL) NOPASSWD:ALL"\n    ssh_authorized_keys:\n      - ${publicKey}\n`;

/**
 * ssh's command line into a lab machine (`login`: user@address) with the lab's key, from inside the
 * lab's namespace (the machines reach nothing outside it); host keys are not kept, as a machine
 * reinstalled or rescued has new ones.
 */
export const labSshArgv = (
  namespace: string,
  key: string,
  login: string,
  command: readonly string[] = [],
  options: readonly string[] = [],
): string[] =>
  inNamespace(namespace, [
    "ssh",
    "-i",
    key,
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "LogLevel=ERROR",
    ...options,
    login,
    ...command,
  ]);

/** What a command said and how it ended: its exit status (null when killed at its time-out). */
export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `argv` (an ssh command line, say) to its end without blocking the event loop, as spawnSync
 * would (a test's other machines go on being watched meanwhile); `input` is written to its stdin.
 * Never rejects: a command that cannot start ends with status null and the reason in stderr.
 */
export function runCommand(argv: readonly string[], options: { timeoutMs: number; input?: string }): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "pipe"], timeout: options.timeoutMs });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", (error) => resolve({ status: null, stdout, stderr: `${stderr}${error.message}` }));
    child.once("close", (status) => resolve({ status, stdout, stderr }));
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
  });
}

/**
 * A machine's newest DHCP lease in the lab's dnsmasq lease file (`expiry mac address …` lines): its
 * address, or undefined. A machine holds a lease per DHCP client id: the microkernel's udhcpc sends
 * `01:<mac>`, the installed Debian's systemd-networkd a DUID (`ff:…`), so the two get different
 * addresses. dnsmasq lists a lease where it was first given, not where it was last renewed (a rescued
 * machine's microkernel renews its old lease below the installed system's): the newest is the one
 * that ends last, the file's first of those on a tie.
 */
export function leasedAddress(leaseFile: string, macs: readonly string[]): string | undefined {
  const leases = existsSync(leaseFile) ? readFileSync(leaseFile, "utf8").split("\n") : [];
  let newest: string[] | undefined;
  for (const fields of leases.map((line) => line.split(" ")))
    if (macs.includes(fields[1] ?? "") && (newest === undefined || Number(fields[0]) > Number(newest[0]))) newest = fields;
  return newest?.[2];
}
