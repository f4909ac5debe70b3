import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { qmpMachine, startArgs } from "../../../lab/qmpMachine";

/**
 * A BMC fixture's machine (lab/qmpMachine.ts) without QEMU: the "emulator" is a script that records
 * its arguments and waits, so these tests see what would be started, and whether anything is left
 * running, at no CPU. (Its QMP commands find no socket and end quietly, as they do for a machine
 * that is off; the boot and e2e tiers drive a real QEMU through them.)
 */
describe("a BMC fixture's QEMU machine (lab/qmpMachine.ts)", () => {
  let dir: string;
  let emulator: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "qmp-machine-"));
    emulator = join(dir, "qemu");
    writeFileSync(emulator, `#!/bin/sh\necho "$@" > ${join(dir, "args")}\nexec sleep 60\n`);
    chmodSync(emulator, 0o755);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("starts at power on with its QMP socket and console, and is off once stopped", async () => {
    const machine = qmpMachine(emulator, ["-machine", "none"], dir);
    expect(machine.running()).toBe(false);
    await machine.reset("On");
    expect(machine.running()).toBe(true);
    expect(readFileSync(join(dir, "args"), "utf8")).toBe(
      `-machine none -nographic -qmp unix:${join(dir, "qmp.sock")},server=on,wait=off\n`,
    );
    await machine.reset("On");
    await machine.stop();
    expect(machine.running()).toBe(false);
  });

  it("starts nothing after it is stopped: a power-on still in flight when its BMC closes leaves no QEMU behind", async () => {
    const machine = qmpMachine(emulator, ["-machine", "none"], dir);
    await machine.stop();
    await machine.reset("On");
    await machine.reset("ForceRestart");
    expect(machine.running()).toBe(false);
    expect(() => readFileSync(join(dir, "args"))).toThrow(/ENOENT/);
  });

  it("puts the virtual CD last in the boot order, first for a one-time CD boot, and the disks first for Hdd", () => {
    const args = ["-machine", "q35", "-device", "virtio-net-pci,netdev=n0,bootindex=1"];
    expect(startArgs(args, undefined, "Cd")).toEqual(args);
    expect(startArgs(["-machine", "none"], "/cd.iso", "Cd")).toEqual(["-machine", "none"]);
    expect(startArgs(args, "/cd.iso", undefined).slice(-4)).toEqual([
      "-drive",
      "if=none,id=vmedia,media=cdrom,readonly=on,file=/cd.iso,format=raw",
      "-device",
      "ide-cd,drive=vmedia,id=vmedia-cd,bus=ide.2,bootindex=90",
    ]);
    expect(startArgs(["-machine", "pc"], "/cd.iso", "Cd").at(-1)).toBe("ide-cd,drive=vmedia,id=vmedia-cd,bus=ide.1,bootindex=0");
    expect(startArgs(args, undefined, "Hdd")[3]).toBe("virtio-net-pci,netdev=n0,bootindex=99");
  });
});
