import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { archiveCache, buildOverlay, CACHED_BUILDS } from "../../../microkernel/initramfs";

const BUSYBOX = "/bin/busybox";

/** The paths an archive holds (busybox's gunzip and cpio, as the microkernel would unpack it). */
const listed = (archive: string): string[] =>
  execFileSync("sh", ["-c", `${BUSYBOX} gunzip -c "$1" | ${BUSYBOX} cpio -t 2>/dev/null`, "sh", archive], { encoding: "utf8" }).split("\n");

/** The built archives the cache keeps, by name, with their times. */
const kept = (): Map<string, number> =>
  new Map(readdirSync(archiveCache()).map((name) => [name, statSync(join(archiveCache(), name)).mtimeMs]));

describe("the microkernel's archives, kept between runs (issue 51)", () => {
  const before = process.env.XDG_CACHE_HOME;
  const scratch = mkdtempSync(join(tmpdir(), "archive-cache-"));
  const program = join(scratch, "tool");
  beforeAll(() => {
    process.env.XDG_CACHE_HOME = join(scratch, "cache");
    copyFileSync("/bin/true", program);
  });
  afterAll(() => {
    process.env.XDG_CACHE_HOME = before;
  });

  it("builds an archive once for the same inputs, and hands each caller a copy of its own", () => {
    const first = buildOverlay(BUSYBOX, join(scratch, "a.cpio.gz"), [program]);
    expect(listed(first)).toContain(program.slice(1));
    const once = kept();
    expect(once.size).toBe(1);
    const second = buildOverlay(BUSYBOX, join(scratch, "b.cpio.gz"), [program]);
    expect(kept()).toEqual(once);
    expect(statSync(second).size).toBe(statSync(first).size);
    expect(statSync(second).ino).not.toBe(statSync(first).ino);
  });

  it("builds again when a program it copies in changes (apt replaced it), or the list of programs does", () => {
    const at = new Date(Date.now() - 60_000);
    utimesSync(program, at, at);
    buildOverlay(BUSYBOX, join(scratch, "c.cpio.gz"), [program]);
    expect(kept().size).toBe(2);
    buildOverlay(BUSYBOX, join(scratch, "d.cpio.gz"), [program, "/bin/false"]);
    expect(kept().size).toBe(3);
  });

  it(`keeps the newest ${CACHED_BUILDS} builds`, () => {
    for (let build = 0; build < CACHED_BUILDS; build += 1) {
      const at = new Date(Date.now() - 120_000 - build * 1_000);
      utimesSync(program, at, at);
      buildOverlay(BUSYBOX, join(scratch, `e${build}.cpio.gz`), [program]);
    }
    expect(kept().size).toBe(CACHED_BUILDS);
  });
});
