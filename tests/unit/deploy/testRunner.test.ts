import { sideBySide } from "../../../scripts/test";

/** A step that prints `text`, waits `ms` and ends with `code`. */
const step = (text: string, ms: number, code = 0) => [
  process.execPath,
  "-e",
  `process.stdout.write(${JSON.stringify(text)}); setTimeout(() => process.exit(${code}), ${ms})`,
];

describe("npm test's two runs side by side (scripts/test.js)", () => {
  it("passes when both pass, and prints the fast checks' output in one piece", async () => {
    // Arrange
    const written: string[] = [];
    // Act
    const code = await sideBySide({
      background: [step("lint ok", 10), step("types ok", 10)],
      foreground: step("", 300),
      write: (text) => written.push(text),
    });
    // Assert
    expect(code).toBe(0);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/fast checks \(passed\)[\s\S]*lint ok[\s\S]*types ok[\s\S]*end of the fast checks/);
  });

  it("stops the server tiers as soon as a fast check fails, and runs no check after it", async () => {
    const written: string[] = [];
    const started = Date.now();
    const code = await sideBySide({
      background: [step("lint failed", 10, 3), step("never printed", 10)],
      foreground: step("", 30_000),
      write: (text) => written.push(text),
    });
    expect(code).toBe(3);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(written.join("")).toContain("fast checks (FAILED)");
    expect(written.join("")).not.toContain("never printed");
    expect(written.join("")).toContain("the server tiers were stopped");
  });

  it("fails with the server tiers' code when only they fail", async () => {
    const code = await sideBySide({ background: [step("ok", 10)], foreground: step("", 10, 2), write: () => undefined });
    expect(code).toBe(2);
  });

  it("fails when a step cannot be started, saying which", async () => {
    const written: string[] = [];
    const code = await sideBySide({
      background: [["/nonexistent/tool"]],
      foreground: step("", 10),
      write: (text) => written.push(text),
    });
    expect(code).toBe(1);
    expect(written.join("")).toContain("/nonexistent/tool: spawn /nonexistent/tool ENOENT");
  });
});
