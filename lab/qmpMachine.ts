import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
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
  stop: () => Promise<void>;
}

/** `serialLog`: one file its console is appended to at each power-on (the lab's); else a file per power-on in `dir`. */
export function qmpMachine(qemu: string, args: string[], dir: string, serialLog?: string): QmpMachine {
  const socket = join(dir, "qmp.sock");
  let child: ChildProcess | undefined;
  let serial = "";
  let powerOns = 0;
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const powerOn = async () => {
    if (running()) return;
    powerOns += 1;
    child = spawnQemu(
      qemu,
      [...args, "-nographic", "-qmp", `unix:${socket},server=on,wait=off`],
      serialLog ?? join(dir, `console-${powerOns}.log`),
      (chunk) => {
        // The lab's BMC runs for days: its file keeps the console, the memory only the last 64 KB.
        serial = (serial + chunk.toString("latin1")).slice(serialLog ? -65_536 : 0);
      },
      serialLog !== undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
  };
  const qmp = (command: string) =>
    new Promise<void>((resolve) => {
      const connection = connect(socket);
      let greeted = false;
      connection.on("data", (data) => {
        if (!greeted) {
          greeted = true;
          connection.write(`${JSON.stringify({ execute: "qmp_capabilities" })}\n${JSON.stringify({ execute: command })}\n`);
          setTimeout(() => connection.end(), 300);
        }
        void data;
      });
      connection.on("close", () => resolve());
      connection.on("error", () => resolve());
    });
  const waitOff = async () => {
    for (let tries = 0; tries < 50 && running(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  };
  return {
    running,
    serial: () => serial,
    reset: async (type) => {
      if (type === "On") return powerOn();
      if (type === "ForceOff" || type === "GracefulShutdown") {
        if (running()) await qmp(type === "ForceOff" ? "quit" : "system_powerdown");
        return waitOff();
      }
      // ForceRestart, GracefulRestart, PowerCycle: a reset, or a start for a machine that is off.
      if (running()) {
        await qmp("system_reset");
        await waitOff();
      }
      return powerOn();
    },
    stop: async () => {
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
