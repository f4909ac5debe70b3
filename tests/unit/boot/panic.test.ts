import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LabState } from "../../../lab/lab";
import { failOnPanic, labPause, panicLine } from "../../boot/support/panic";

const PANICKED = [
  "[    0.912345] ..MP-BIOS bug: 8254 timer not connected to IO-APIC",
  "[    0.913000] Kernel panic - not syncing: IO-APIC + timer doesn't work!  Boot with apic=debug and send a report.",
  "[    0.913100] CPU: 0 PID: 1 Comm: swapper/0 Not tainted",
].join("\r\n");

describe("the boot tier's panic check", () => {
  it("reads the panic line, whole, and nothing from a console without one", () => {
    expect(panicLine(PANICKED)).toBe("Kernel panic - not syncing: IO-APIC + timer doesn't work!  Boot with apic=debug and send a report.");
    expect(panicLine("MICROKERNEL: discovered\nreboot: Power down\n")).toBeUndefined();
  });

  it("fails naming the machine and its panic line", () => {
    expect(() => failOnPanic("vm-uefi", PANICKED)).toThrow(/^vm-uefi's kernel panicked: Kernel panic - not syncing: IO-APIC \+ timer/);
    expect(() => failOnPanic("vm-uefi", "booting")).not.toThrow();
  });

  it("checks the lab's machines after the pause: only those named, and a log not yet written is no failure", async () => {
    const dir = mkdtempSync(join(tmpdir(), "panic-test-"));
    try {
      writeFileSync(join(dir, "a.log"), PANICKED);
      writeFileSync(join(dir, "b.log"), "fine");
      const state = {
        plan: {
          machines: [
            { machine: { name: "a" }, serialLog: join(dir, "a.log") },
            { machine: { name: "b" }, serialLog: join(dir, "b.log") },
            { machine: { name: "c" }, serialLog: join(dir, "none.log") },
          ],
        },
      } as unknown as LabState;
      await expect(labPause(state, 0, ["b", "c"])).resolves.toBeUndefined();
      await expect(labPause(state, 0)).rejects.toThrow(/^a's kernel panicked/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
