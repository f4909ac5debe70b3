import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processEnded } from "../../../lab/host";
import { stateFile, watchLab } from "../../../lab/lab";
import { heldZombie } from "./zombie";

/**
 * The watchdog of a lab a test started (UpOptions.owner, lab/daemon.ts `watch`): a test run stopped
 * by a signal runs no afterAll, and the lab it left would go on using the CPU until the next `up`.
 */
describe("a lab's watchdog (watchLab)", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "watch-lab-"));
    writeFileSync(stateFile(dir), "{}");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("takes the lab down once its owner has ended, and not before", async () => {
    const owner = spawn("sleep", ["0.3"]);
    const pid = owner.pid as number;
    // Whether the owner had ended when the lab was taken down: read then, not timed (a loaded
    // machine starts the owner late, and a duration from here says nothing).
    const endedAtDown: boolean[] = [];
    const down = async () => {
      endedAtDown.push(processEnded(pid));
    };
    const how = await watchLab({ owner: pid, dir, everyMs: 50, down });
    expect(how).toBe("owner ended");
    expect(endedAtDown).toEqual([true]);
  });

  it("ends, taking nothing down, once the lab was taken down by its owner", async () => {
    const down = jest.fn(async () => undefined);
    const watching = watchLab({ owner: process.pid, dir, everyMs: 20, down });
    await new Promise((resolve) => setTimeout(resolve, 100));
    rmSync(stateFile(dir));
    expect(await watching).toBe("taken down");
    expect(down).not.toHaveBeenCalled();
  });

  it("reads a process that is gone, or a zombie not yet reaped, as ended; a running one as not", async () => {
    expect(processEnded(process.pid)).toBe(false);
    expect(processEnded(2 ** 22 + 1)).toBe(true);
    const { pid: child, holder } = await heldZombie(join(dir, "child"), 2);
    expect(processEnded(child)).toBe(true);
    holder.kill();
  });
});
