import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

/**
 * A zombie that stays one for `seconds`: `sleep 0` ends at once, and its shell, which then becomes
 * `sleep <seconds>`, never reaps it. Its pid is written to `pidFile` (as a QEMU's is, say); answers
 * once /proc shows it a zombie, with its holder (to kill when done).
 */
export async function heldZombie(pidFile: string, seconds: number): Promise<{ pid: number; holder: ChildProcess }> {
  writeFileSync(pidFile, "");
  const holder = spawn("sh", ["-c", `sleep 0 & echo $! > ${pidFile}; exec sleep ${seconds}`], { stdio: "ignore" });
  const zombie = (pid: number) => pid > 0 && /\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  for (let tries = 0; tries < 100; tries += 1) {
    const pid = Number(readFileSync(pidFile, "utf8").trim() || 0);
    try {
      if (zombie(pid)) return { pid, holder };
    } catch {
      // not there yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  holder.kill();
  throw new Error(`no zombie in ${pidFile} within 2 s`);
}
