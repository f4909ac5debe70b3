import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processEnded } from "../../../lab/host";
import { heldZombie } from "./zombie";

/**
 * ipmi_sim's chassis program for the lab's IPMI machines (lab/vm-chassis.sh), without QEMU: the
 * "emulator" is a script that waits (one that ignores TERM, for a machine slow to end). ipmi_sim
 * waits for the program's answer and ipmitool gives it two seconds a try, so a power command must
 * answer at once: a QEMU that has ended but not yet been reaped (a zombie, for as long as whoever
 * inherited it takes) is off, and one that will not end is killed rather than run beside the next.
 */
describe("the lab's IPMI chassis program (lab/vm-chassis.sh)", () => {
  const SCRIPT = join(__dirname, "../../../lab/vm-chassis.sh");
  let dir: string;
  let pids: number[] = [];
  const chassis = (emulator: string, ...args: string[]) =>
    execFileSync("sh", [SCRIPT, ...args], {
      encoding: "utf8",
      env: { ...process.env, CHASSIS_STATE: dir, QEMU: emulator, QEMU_ARGS: "-machine none" },
    });
  const emulator = (body: string) => {
    const file = join(dir, "qemu");
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };
  const pid = () => Number(readFileSync(join(dir, "qemu.pid"), "utf8"));
  const alive = (each: number) => !processEnded(each);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "vm-chassis-"));
    pids = [];
  });
  afterEach(() => {
    for (const each of pids)
      try {
        process.kill(each, "SIGKILL");
      } catch {
        // ended
      }
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads a QEMU that has ended but is not yet reaped as off", async () => {
    const { holder } = await heldZombie(join(dir, "qemu.pid"), 5);
    pids.push(holder.pid as number);
    expect(chassis(emulator("exec sleep 60"), "get", "power")).toBe("power:0\n");
  });

  it("resets a machine that will not end on TERM: killed, then one machine started, not two", () => {
    // The first machine ignores TERM; the one the reset starts ends on it.
    const qemu = emulator(
      `[ -e ${join(dir, "stubborn")} ] && exec sleep 60\ntouch ${join(dir, "stubborn")}\ntrap '' TERM\nwhile :; do sleep 1; done`,
    );
    chassis(qemu, "set", "power", "1");
    const first = pid();
    pids.push(first);
    expect(chassis(qemu, "get", "power")).toBe("power:1\n");
    chassis(qemu, "set", "reset", "1");
    const second = pid();
    pids.push(second);
    expect(second).not.toBe(first);
    expect([alive(first), alive(second)]).toEqual([false, true]);
    chassis(qemu, "set", "power", "0");
    expect(alive(second)).toBe(false);
    expect(chassis(qemu, "get", "power")).toBe("power:0\n");
    expect(readFileSync(join(dir, "calls"), "utf8")).toBe("set power 1\nget power\nset reset 1\nset power 0\nget power\n");
  });
});
