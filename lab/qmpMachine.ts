import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnQemu } from "./qemuConsole";

/**
 * A QEMU machine whose power a BMC fixture controls, as a BMC controls a server: power on starts
 * QEMU (network boot first, serial console kept), and the rest goes through QEMU's QMP socket
 * (`quit` for a forced off, `system_reset` for a reset: with -no-reboot QEMU ends on a reset, so
 * the machine is then started again, as a reset machine would come back).
 */
export interface QmpMachine {
  running: () => boolean;
  /** Redfish's ResetType, applied to the machine. */
  reset: (type: string) => Promise<void>;
  serial: () => string;
  /** Off for good (its BMC is closing): nothing powers it on again. */
  stop: () => Promise<void>;
  /**
   * The virtual CD's image (a file; undefined: empty), as a BMC's virtual media: changed at once in a
   * running machine (QMP's blockdev-change-medium, or eject), and there at its next start.
   */
  insertMedia: (file: string | undefined) => Promise<void>;
  /** The device its next start boots first (Redfish's BootSourceOverrideTarget: Cd, Pxe, Hdd), that start only. */
  bootOnce: (target: string | undefined) => void;
}

/** The QEMU id of the virtual CD's drive, and its place in the boot order when not booted once: last. */
const CD = "vmedia-cd";
const LAST = 90;

/**
 * The machine's arguments for one start: its virtual CD when an image is inserted, last in its boot
 * order, or first when told to boot it once; `Hdd` puts the disks before the network. (With no image
 * the machine has no CD drive: a machine that never had one inserted starts as it always did.)
 */
export function startArgs(args: readonly string[], media: string | undefined, target: string | undefined): string[] {
  const machineType = args[args.indexOf("-machine") + 1] ?? "";
  const started = target === "Hdd" ? args.map((arg) => arg.replace(/,bootindex=1\b/, ",bootindex=99")) : [...args];
  if (machineType === "none" || media === undefined) return started;
  // A server's virtual CD is a USB CD-ROM; here it is on the machine's own IDE or AHCI controller, which both firmwares boot from.
  const bus = machineType.startsWith("q35") ? "ide.2" : "ide.1";
  return [
    ...started,
    "-drive",
    `if=none,id=vmedia,media=cdrom,readonly=on,file=${media},format=raw`,
    "-device",
    `ide-cd,drive=vmedia,id=${CD},bus=${bus},bootindex=${target === "Cd" ? 0 : LAST}`,
  ];
}

/**
 * One QMP command to the QEMU listening on `socket` (its capabilities negotiated first), as a
 * BMC's firmware or an operator's tool sends it (`set_link` pulls a NIC's cable, issue 54). Ends
 * quietly when there is no QEMU there: a machine that is off has nothing to tell.
 */
export const qmpExecute = (socket: string, command: string, args?: Record<string, unknown>) =>
  new Promise<void>((resolve) => {
    const connection = connect(socket);
    let greeted = false;
    connection.on("data", () => {
      if (greeted) return;
      greeted = true;
      connection.write(
        `${JSON.stringify({ execute: "qmp_capabilities" })}\n${JSON.stringify({ execute: command, ...(args && { arguments: args }) })}\n`,
      );
      setTimeout(() => connection.end(), 300);
    });
    connection.on("close", () => resolve());
    connection.on("error", () => resolve());
  });

/** `serialLog`: one file its console is appended to at each power-on (the lab's); else a file per power-on in `dir`. */
export function qmpMachine(qemu: string, args: string[], dir: string, serialLog?: string): QmpMachine {
  const socket = join(dir, "qmp.sock");
  let child: ChildProcess | undefined;
  let serial = "";
  let powerOns = 0;
  let media: string | undefined;
  let once: string | undefined;
  /** Whether the running QEMU has the CD drive (it is started with one only when an image is inserted). */
  let drive = false;
  /**
   * Stopped for good (its BMC closed): a power-on still in flight (a reset whose request came in
   * before the close, its QEMU quit and waited for) starts nothing, or it would outlive the BMC.
   */
  let stopped = false;
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const powerOn = async () => {
    if (stopped || running()) return;
    powerOns += 1;
    child = spawnQemu(
      qemu,
      [...startArgs(args, media, once), "-nographic", "-qmp", `unix:${socket},server=on,wait=off`],
      serialLog ?? join(dir, `console-${powerOns}.log`),
      (chunk) => {
        // The lab's BMC runs for days: its file keeps the console, the memory only the last 64 KB.
        serial = (serial + chunk.toString("latin1")).slice(serialLog ? -65_536 : 0);
      },
      serialLog !== undefined,
    );
    const bootedCd = once === "Cd";
    once = undefined;
    drive = media !== undefined;
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Once means once: the CD goes back to the end of the order for the machine's next reset (QEMU
    // rebuilds the firmware's boot order at a reset; a guest's own reboot is one).
    if (bootedCd && drive) await cdBootIndex(LAST);
  };
  const qmp = (command: string, args?: Record<string, unknown>) => qmpExecute(socket, command, args);
  const cdBootIndex = async (index: number) => {
    for (let tries = 0; tries < 50 && !existsSync(socket); tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    await qmp("qom-set", { path: CD, property: "bootindex", value: index });
  };
  const waitOff = async () => {
    for (let tries = 0; tries < 50 && running(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  };
  return {
    running,
    serial: () => serial,
    insertMedia: async (file) => {
      media = file;
      // A machine started with no image has no CD drive: the image is there at its next start.
      if (!running() || !drive) return;
      if (file) await qmp("blockdev-change-medium", { id: CD, filename: file, format: "raw", "read-only-mode": "read-only" });
      else await qmp("eject", { id: CD, force: true });
    },
    bootOnce: (target) => {
      once = target;
    },
    reset: async (type) => {
      if (type === "On") return powerOn();
      if (type === "ForceOff" || type === "GracefulShutdown") {
        if (running()) await qmp(type === "ForceOff" ? "quit" : "system_powerdown");
        return waitOff();
      }
      // ForceRestart, GracefulRestart, PowerCycle: a reset, or a start for a machine that is off.
      if (running() && media !== undefined && !drive) {
        // An image inserted into a machine started without a CD drive: a cold start gives it one.
        await qmp("quit");
        await waitOff();
      }
      if (running()) {
        const toCd = once === "Cd";
        once = undefined;
        if (toCd) await cdBootIndex(0);
        await qmp("system_reset");
        if (toCd) await cdBootIndex(LAST);
        await waitOff();
      }
      return powerOn();
    },
    stop: async () => {
      stopped = true;
      child?.kill("SIGKILL");
      await waitOff();
    },
  };
}

/**
 * A machine with no processor running (`-machine none -S`): a real QEMU process whose power a BMC
 * starts, stops and resets through QMP, at almost no CPU, for the tiers that boot no firmware.
 */
export const idleMachine = (qemu = "qemu-system-x86_64"): QmpMachine =>
  qmpMachine(qemu, ["-machine", "none", "-S", "-no-reboot", "-monitor", "none"], mkdtempSync(join(tmpdir(), "idle-machine-")));
