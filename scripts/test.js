// npm test (issue 36): the fast checks (lint, types, the unit and handler tiers with coverage) run
// beside the server tiers instead of before them, at a lower priority (nice 10) so that the tiers
// with time-outs keep the CPU they need. They fill the server tiers' idle CPU (29 % of the run
// before, 8.7 % after) but do not shorten it: the run is bound by its CPU (23.2 min against 23.3,
// docs/development.md); a fast check's failure now ends it within minutes. Their output is held and
// printed in one piece when they end, so the two runs' lines do not interleave.
// A failing fast check stops the server tiers at once (as `a && b` did); either failing fails the
// whole. Plain JavaScript: no transpiler between `npm test` and jest.
const { spawn } = require("node:child_process");

/** Every step running now (each leads a process group of its own), to stop on Ctrl-C. */
const running = new Set();

/** Ends a step's whole process group (jest's workers, serverless offline, QEMU under it). */
function stop(child, signal = "SIGTERM") {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already ended
  }
}

/**
 * Runs one step to its end. `inherit`: its output goes to this process's; otherwise it is
 * collected into `sink`. Resolves with the exit code (1 for a signal).
 */
function runStep([command, ...args], { inherit, sink, onChild }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: inherit ? "inherit" : ["ignore", "pipe", "pipe"], detached: true });
    running.add(child);
    onChild?.(child);
    if (!inherit) {
      child.stdout.on("data", (chunk) => sink.push(chunk));
      child.stderr.on("data", (chunk) => sink.push(chunk));
    }
    child.once("error", (error) => {
      sink?.push(Buffer.from(`${command}: ${error.message}\n`));
      resolve(1);
    });
    child.once("close", (code) => {
      running.delete(child);
      resolve(code ?? 1);
    });
  });
}

/**
 * Runs `background` (steps one after another, output held) beside `foreground` (one step, output
 * live). Resolves with 0 when both pass; stops the foreground when a background step fails.
 * @param {{ background: string[][], foreground: string[], write?: (text: string) => void }} plan
 */
async function sideBySide({ background, foreground, write = (text) => process.stdout.write(text) }) {
  let foregroundChild;
  let stopped = false;
  const held = [];
  const backgroundRun = (async () => {
    for (const step of background) {
      held.push(Buffer.from(`\n> ${step.join(" ")}\n`));
      const code = await runStep(step, { inherit: false, sink: held });
      if (code !== 0) return code;
    }
    return 0;
  })().then((code) => {
    write(`\n--- fast checks (${code === 0 ? "passed" : "FAILED"}) ---${Buffer.concat(held).toString()}--- end of the fast checks ---\n`);
    if (code !== 0 && foregroundChild) {
      stopped = true;
      stop(foregroundChild);
    }
    return code;
  });
  const foregroundCode = await runStep(foreground, { inherit: true, onChild: (child) => (foregroundChild = child) });
  const backgroundCode = await backgroundRun;
  if (stopped) write("the server tiers were stopped: a fast check failed (above)\n");
  return backgroundCode !== 0 ? backgroundCode : foregroundCode;
}

module.exports = { sideBySide };

if (require.main === module) {
  // The steps lead process groups of their own, so a terminal's Ctrl-C reaches this process only.
  for (const signal of ["SIGINT", "SIGTERM"])
    process.once(signal, () => {
      for (const child of running) stop(child, signal);
      process.exit(130);
    });
  const jest = require.resolve("jest/bin/jest");
  sideBySide({
    background: [
      ["nice", "-n", "10", "npm", "run", "lint"],
      ["nice", "-n", "10", "npm", "run", "typecheck"],
      ["nice", "-n", "10", "npm", "run", "test:coverage"],
    ],
    foreground: [process.execPath, jest, "--ignoreProjects", "unit", "handler", "--maxWorkers=2"],
  }).then((code) => process.exit(code));
}
