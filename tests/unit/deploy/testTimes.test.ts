import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileSeconds, formatSlowest, formatTiers, readTimes } from "../../../scripts/testTimes";

const file = (tier: string, name: string, start: number, end: number, ...ms: number[]) => ({
  tier,
  file: name,
  start,
  end,
  tests: ms.map((time, i) => ({ name: `${name} case ${i}`, ms: time, status: "passed" })),
});

describe("the test tiers' times (scripts/testTimes.js)", () => {
  it("gives each tier its files, tests, wall time and the sum of its files' times, in the order the tiers started", () => {
    // Arrange: two e2e files side by side, a boot file after them.
    const files = [
      file("boot", "b.test.ts", 5_000, 65_000, 60_000),
      file("e2e", "x.test.ts", 0, 10_000, 1, 2),
      file("e2e", "y.test.ts", 2_000, 12_000, 3),
    ];
    // Act
    const lines = formatTiers(files).split("\n");
    // Assert
    expect(lines.slice(3)).toEqual([
      "| e2e | 2 | 3 | 12.0 s | 20.0 s |",
      "| boot | 1 | 1 | 60.0 s | 60.0 s |",
      "| all | 3 | 4 | 65.0 s | 80.0 s |",
    ]);
  });

  it("lists the slowest test cases first, as many as asked, with their tier and file", () => {
    const files = [file("unit", "u.test.ts", 0, 1, 5, 700), file("e2e", "a|b.test.ts", 0, 1, 1_500)];
    expect(formatSlowest(files, 2).split("\n").slice(3)).toEqual([
      "| e2e | a|b.test.ts | a\\|b.test.ts case 0 | 1.5 s |",
      "| unit | u.test.ts | u.test.ts case 1 | 0.7 s |",
    ]);
  });
});

describe("the test times of several jest runs (readTimes)", () => {
  it("reads every run's file in the folder together, and nothing from a folder not written yet", () => {
    const folder = mkdtempSync(join(tmpdir(), "test-times-"));
    writeFileSync(join(folder, "run-1-10.json"), JSON.stringify([file("unit", "u.test.ts", 0, 1, 1)]));
    writeFileSync(join(folder, "run-2-11.json"), JSON.stringify([file("e2e", "e.test.ts", 0, 2, 2)]));
    writeFileSync(join(folder, "notes.txt"), "not a run");
    expect(readTimes(folder).map((each) => each.file)).toEqual(["u.test.ts", "e.test.ts"]);
    expect(readTimes(join(folder, "absent"))).toEqual([]);
    rmSync(folder, { recursive: true });
  });
});

describe("the order npm test starts its files in (longestFirst, fileSeconds)", () => {
  const LongestFirst = require("../../support/longestFirst");
  const { keyOf } = LongestFirst;
  const test = (tier: string, path: string) => ({
    path: `/repo/${path}`,
    context: { config: { rootDir: "/repo", displayName: { name: tier } } },
  });

  it("keys a file by its tier and its path from the root", () => {
    expect(keyOf(test("boot", "tests/boot/a.test.ts"))).toBe("boot tests/boot/a.test.ts");
    expect(keyOf({ path: "/repo/x.test.ts", context: { config: { rootDir: "/repo" } } })).toBe("default x.test.ts");
  });

  it("writes each file's seconds, longest first, under that key", () => {
    const seconds = fileSeconds([file("e2e", "tests/e2e/x.test.ts", 0, 2_400), file("boot", "tests/boot/b.test.ts", 0, 61_600)]);
    expect(Object.entries(seconds)).toEqual([
      ["boot tests/boot/b.test.ts", 62],
      ["e2e tests/e2e/x.test.ts", 2],
    ]);
  });

  it("starts the measured files longest first, a file not measured as if it took a typical end-to-end file's time", () => {
    const measured = require("../../support/fileSeconds.json") as Record<string, number>;
    const sorted = Object.entries(measured).sort((a, b) => b[1] - a[1]);
    const [longest] = sorted;
    const shortest = sorted.at(-1)!;
    expect(longest[1]).toBeGreaterThan(LongestFirst.UNLISTED_SECONDS);
    expect(shortest[1]).toBeLessThan(LongestFirst.UNLISTED_SECONDS);
    const asTest = (key: string) => test(key.split(" ")[0], key.split(" ")[1]);
    const order = new LongestFirst({}).sort([asTest(shortest[0]), test("e2e", "tests/e2e/new.test.ts"), asTest(longest[0])]);
    expect(order.map(keyOf)).toEqual([longest[0], "e2e tests/e2e/new.test.ts", shortest[0]]);
  });
});
