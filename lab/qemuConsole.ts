import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** How often the console file is read for what QEMU wrote since. */
const READ_EVERY_MS = 100;

/**
 * Starts QEMU with its console (stdout and stderr, where `-nographic` puts the serial port) going
 * to `file` rather than to a pipe, and hands what it writes to `onData` as it comes (read every
 * 100 ms, and once more when QEMU exits, before any later `exit` listener runs).
 *
 * Why a file: QEMU's serial port drops a character it fails to write a few times over, and a pipe
 * refuses writes while the test's process is too busy to read it. Under load the boot tier once
 * read a kernel command line as "console=tty0 onsole=ttyS0,115200n8". A file takes every write.
 */
export function spawnQemu(qemu: string, args: string[], file: string, onData: (chunk: Buffer) => void, append = false): ChildProcess {
  const out = openSync(file, append ? "a" : "w");
  const child = spawn(qemu, args, { stdio: ["ignore", out, out] });
  closeSync(out);
  const input = openSync(file, "r");
  const buffer = Buffer.alloc(1 << 16);
  // Appending (a lab machine's one log across its power-ons): only what this QEMU writes is handed on.
  let at = append ? fstatSync(input).size : 0;
  let open = true;
  const read = () => {
    while (open) {
      const count = readSync(input, buffer, 0, buffer.length, at);
      if (count <= 0) return;
      at += count;
      onData(Buffer.from(buffer.subarray(0, count)));
    }
  };
  const timer = setInterval(read, READ_EVERY_MS);
  const close = () => {
    if (!open) return;
    clearInterval(timer);
    read();
    open = false;
    closeSync(input);
  };
  child.once("exit", close);
  child.once("error", close);
  return child;
}
