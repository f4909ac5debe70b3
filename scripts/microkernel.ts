import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Plays RackHD's discovery microkernel against a running server, as its bootstrap.js does: ask
 * `GET …/tasks/<node>` for commands, run each (stopping at the first that fails with a code it
 * does not accept), post the command object back with what each printed, until the server hands
 * out `sudo reboot`. The commands run against a machine description: a built-in sample (a
 * VirtualBox VM), or the host itself where the tools are present.
 */

/** What running a command on the machine gives. */
export interface CommandOutput {
  stdout: string;
  stderr: string;
  code: number;
}

export type Machine = (cmd: string) => CommandOutput;

const SAMPLE = join(__dirname, "sampleMachine");
const SAMPLE_MAC = /08:00:27:27:eb:12/gi;
const sampleFile = (name: string, mac: string): string => readFileSync(join(SAMPLE, name), "utf8").replace(SAMPLE_MAC, mac);
const ok = (stdout: string): CommandOutput => ({ stdout, stderr: "", code: 0 });
const missing = (cmd: string): CommandOutput => ({ stdout: "", stderr: `${cmd.split(" ")[1] ?? cmd}: command not found`, code: 127 });

/** The built-in sample machine: a VirtualBox VM with one NIC (`mac`), no BMC. */
export function sampleMachine(mac: string): Machine {
  const outputs: Record<string, () => CommandOutput> = {
    "sudo dmidecode": () => ok(sampleFile("dmidecode.txt", mac)),
    "sudo ohai --directory /etc/ohai/plugins": () => ok(sampleFile("ohai.json", mac)),
    "sudo lshw -json": () => ok(sampleFile("lshw.json", mac)),
    "sudo lspci -nn -vmm": () => ok(sampleFile("lspci.txt", mac)),
    "sudo lsscsi --size": () => ok(sampleFile("lsscsi.txt", mac)),
    // A BIOS machine, as the product's microkernel answers mokutil there (issue 38).
    "sudo mokutil --sb-state": () => ok("EFI variables are not supported on this system\n"),
    "sudo ls /var": () => ok("backups\ncache\nlib\nlocal\nlock\nlog\nmail\nopt\nrun\nspool\ntmp\n"),
    test: () => ({ stdout: "", stderr: "", code: 1 }),
    // A release's erase and a rescue's SSH (issue 53), played: nothing is written and no SSH starts;
    // the report says so (method "simulated"), in the shape the real microkernel's has (lifecycle.sh).
    "erase-disks quick": () => ok(simulatedErase("quick")),
    "erase-disks full": () => ok(simulatedErase("full")),
  };
  return (cmd) => {
    if (Object.hasOwn(outputs, cmd)) return outputs[cmd]();
    if (cmd.startsWith("rescue-ssh ")) return ok("");
    return cmd.startsWith("sudo ipmitool") ? noBmc() : missing(cmd);
  };
}

/** The sample machine's one disk (its lsscsi: an 8.58 GB VirtualBox disk), erased in play only. */
const simulatedErase = (mode: string): string =>
  JSON.stringify([
    {
      disk: "/dev/sda",
      model: "VBOX HARDDISK",
      serial: "",
      bytes: 8589934592,
      mode,
      method: "simulated",
      seconds: 0,
      result: "erased",
      answer: "the simulator writes nothing",
    },
  ]);

const noBmc = (): CommandOutput => ({ stdout: "", stderr: "Could not open device at /dev/ipmi0: No such file or directory", code: 1 });

/**
 * The host as the machine: each command runs without `sudo` (the simulator is no root shell) where
 * its tool is installed and answers; anything else as the sample machine would.
 */
export function hostMachine(mac: string): Machine {
  const sample = sampleMachine(mac);
  return (cmd) => {
    const [tool, ...args] = cmd.replace(/^sudo\s+/, "").split(/\s+/);
    try {
      const stdout = execFileSync(tool, args, {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 30_000,
        maxBuffer: 10 << 20,
      });
      return ok(stdout);
    } catch {
      return sample(cmd);
    }
  };
}

export interface MicrokernelOptions {
  /** `…/api/current/tasks/<node id>`, with `?token=` when the server wants one. */
  tasksUrl: string;
  machine: Machine;
  log?: (line: string) => void;
  /** Pause between polls with nothing to do (RackHD's: 5 s). */
  pollMs?: number;
  /** Give up after this many polls in a row with nothing to do. */
  idlePolls?: number;
}

export interface MicrokernelRun {
  /** Command sets run and posted back. */
  exchanges: number;
  rebooted: boolean;
}

/** A command as the service hands it out; running it adds stdout, stderr and error (RackHD's bootstrap.js). */
export interface HandedOut {
  cmd: string;
  acceptedResponseCodes?: number[];
  [key: string]: unknown;
}

/**
 * Runs the commands handed out on the machine, in order, as bootstrap.js does: each gets its
 * stdout, stderr and error (null, or the exit code), and the first that fails with a code it does
 * not accept ends the run.
 */
export function runCommands(commands: HandedOut[], machine: Machine, log: (line: string) => void = () => undefined): void {
  for (const command of commands) {
    const output = machine(command.cmd);
    Object.assign(command, {
      stdout: output.stdout,
      stderr: output.stderr,
      error: output.code === 0 ? null : { killed: false, code: output.code, signal: null, cmd: command.cmd },
    });
    log(`microkernel: ${command.cmd} -> exit ${output.code}, ${output.stdout.length} bytes`);
    if (output.code !== 0 && !(command.acceptedResponseCodes ?? []).includes(output.code)) return;
  }
}

export async function playMicrokernel(options: MicrokernelOptions): Promise<MicrokernelRun> {
  const log = options.log ?? (() => undefined);
  const run: MicrokernelRun = { exchanges: 0, rebooted: false };
  for (let idle = 0; idle < (options.idlePolls ?? 3); ) {
    const answer = await fetch(options.tasksUrl);
    if (answer.status >= 400) throw new Error(`GET ${options.tasksUrl} answered ${answer.status}: ${await answer.text()}`);
    const body = answer.status === 200 ? ((await answer.json()) as { tasks?: HandedOut[] }) : undefined;
    if (!body?.tasks || body.tasks.length === 0) {
      idle += 1;
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 5000));
      continue;
    }
    idle = 0;
    if (body.tasks.some((task) => task.cmd === "sudo reboot")) {
      log("microkernel: sudo reboot");
      return { ...run, rebooted: true };
    }
    // A release ends with the machine off (its disks erased).
    if (body.tasks.some((task) => task.cmd === "sudo poweroff")) {
      log("microkernel: sudo poweroff");
      return run;
    }
    runCommands(body.tasks, options.machine, log);
    const posted = await fetch(options.tasksUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (posted.status !== 201) throw new Error(`POST ${options.tasksUrl} answered ${posted.status}: ${await posted.text()}`);
    run.exchanges += 1;
  }
  return run;
}
