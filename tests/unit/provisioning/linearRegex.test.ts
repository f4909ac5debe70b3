/** RE2 patterns for rules and filters: bounded pattern and subject, a bounded cache of compiled ones. */
const fresh = (): typeof import("../../../lib/provisioning/rules/linearRegex") => {
  let module: typeof import("../../../lib/provisioning/rules/linearRegex") | undefined;
  jest.isolateModules(() => {
    module = require("../../../lib/provisioning/rules/linearRegex");
  });
  return module!;
};

describe("linearRegex", () => {
  it("takes a pattern up to PATTERN_MAX characters, none longer", () => {
    const { linearRegex, PATTERN_MAX } = fresh();
    expect(linearRegex("a".repeat(PATTERN_MAX))).toEqual(expect.any(Function));
    expect(linearRegex("a".repeat(PATTERN_MAX + 1))).toBeUndefined();
  });

  it("refuses a short pattern that compiles past PROGRAM_MAX instructions (its work per character of a value; issue 50)", () => {
    const { linearRegex } = fresh();
    // 21 characters, 2,010 instructions: 370 ms a 4 KB value here.
    expect(linearRegex("(?i)(.{0,500}a){1,2}z")).toBeUndefined();
    expect(linearRegex("(?i)(.{0,90}a){1,2}z")).toEqual(expect.any(Function));
    // RackHD's own rules are far below.
    expect(linearRegex("^Intel.*Xeon.*E5-26[0-9]{2}")).toEqual(expect.any(Function));
  });

  it("searches the subject's first SUBJECT_MAX characters only", () => {
    const { linearRegex, SUBJECT_MAX } = fresh();
    const matches = linearRegex("needle")!;
    expect(matches(`${"x".repeat(SUBJECT_MAX - 6)}needle`)).toBe(true);
    expect(matches(`${"x".repeat(SUBJECT_MAX)}needle`)).toBe(false);
  });

  it("keeps the last 256 patterns compiled, dropping the oldest first", () => {
    const { linearRegex } = fresh();
    const first = linearRegex("p0");
    expect(linearRegex("p1")).toBe(linearRegex("p1"));
    for (let i = 2; i < 256; i += 1) linearRegex(`p${i}`);
    expect(linearRegex("p0")).toBe(first);
    linearRegex("p256");
    expect(linearRegex("p0")).not.toBe(first);
  });
});
