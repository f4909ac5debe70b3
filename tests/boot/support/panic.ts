import { existsSync, readFileSync } from "node:fs";
import type { LabState } from "../../../lab/lab";

/**
 * A kernel that panics does not power off or reboot (the microkernel's line has no `panic=`): it
 * hangs, and a test waiting on its workflow would wait out its whole time-out. These read the panic
 * from the console so that the test fails at once, with the line that says why.
 */
const PANIC = /Kernel panic - not syncing:[^\r\n]*/;

/** The console's first panic line, if it has one. */
export const panicLine = (console: string): string | undefined => PANIC.exec(console)?.[0];

/** Throws, naming the machine and its panic line with the console's end, if the console shows a panic. */
export function failOnPanic(name: string, console: string): void {
  const line = panicLine(console);
  if (line) throw new Error(`${name}'s kernel panicked: ${line}\nSerial console:\n${console.slice(-4000)}`);
}

/** Waits `ms` (a test's poll between two reads of the API), then fails if a lab machine (of `names`, or any) panicked. */
export async function labPause(state: LabState, ms: number, names?: readonly string[]): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  for (const planned of state.plan.machines) {
    const { name } = planned.machine;
    if (names && !names.includes(name)) continue;
    if (existsSync(planned.serialLog)) failOnPanic(name, readFileSync(planned.serialLog, "latin1"));
  }
}
