import { type MutationReport, mergeReports, mutationScore, scoreTable, staticJudgedLines } from "../../../scripts/mutationReport";

/** A report of one part: `files` with their mutants, and the tests it ran under its own ids. */
const part = (files: MutationReport["files"], tests: Record<string, string[]>): MutationReport => ({
  schemaVersion: "2",
  thresholds: { high: 85, low: 70, break: 65 },
  files,
  testFiles: Object.fromEntries(
    Object.entries(tests).map(([path, names]) => [
      path,
      { source: path, tests: names.map((name, i) => ({ id: `${path.length}-${i}`, name })) },
    ]),
  ),
});
const mutant = (id: string, status: string, coveredBy: string[] = [], killedBy?: string[]) => ({
  id,
  status,
  coveredBy,
  ...(killedBy && { killedBy }),
});

describe("the domain's mutation report merged from its parts (scripts/mutationReport.ts)", () => {
  it("keeps every part's files and points each mutant at the same test however its run numbered it", () => {
    // Arrange: two parts ran the same test file; their local ids differ.
    const a = part({ "lib/a.ts": { source: "a", mutants: [mutant("1", "Killed", ["3-0"], ["3-0"])] } }, { "t/x": ["adds", "refuses"] });
    const b = part({ "lib/b.ts": { source: "b", mutants: [mutant("1", "Survived", ["3-1", "3-0"])] } }, { "t/x": ["adds", "refuses"] });
    b.testFiles!["t/x"].tests = [
      { id: "3-0", name: "refuses" },
      { id: "3-1", name: "adds" },
    ];
    // Act
    const merged = mergeReports([a, b]);
    // Assert
    expect(Object.keys(merged.files)).toEqual(["lib/a.ts", "lib/b.ts"]);
    const ids = Object.fromEntries(merged.testFiles!["t/x"].tests.map((test) => [test.name, test.id]));
    expect(Object.keys(ids).sort()).toEqual(["adds", "refuses"]);
    expect(merged.files["lib/a.ts"].mutants[0].killedBy).toEqual([ids.adds]);
    // In b, "3-1" is "adds" and "3-0" "refuses".
    expect(merged.files["lib/b.ts"].mutants[0].coveredBy).toEqual([ids.adds, ids.refuses]);
  });

  it("takes a later part's copy of a file, adds a test file only one part ran, and drops ids no test file names", () => {
    const early = part({ "lib/a.ts": { source: "old", mutants: [mutant("1", "Survived")] } }, {});
    const later = part({ "lib/a.ts": { source: "new", mutants: [mutant("1", "Killed", ["9", "5-0"], ["5-0"])] } }, { "t/new": ["kills"] });
    const merged = mergeReports([early, later]);
    expect(merged.files["lib/a.ts"]).toMatchObject({ source: "new", mutants: [{ status: "Killed", coveredBy: ["0"], killedBy: ["0"] }] });
    expect(merged.testFiles!["t/new"].tests).toEqual([{ id: "0", name: "kills" }]);
    expect(() => mergeReports([])).toThrow("no report to merge");
  });

  it("scores detected (killed, timed out) over detected and undetected (survived, no coverage), leaving out the rest", () => {
    const report = part(
      {
        "lib/a.ts": { source: "", mutants: [mutant("1", "Killed"), mutant("2", "Timeout"), mutant("3", "Survived")] },
        "lib/b.ts": { source: "", mutants: [mutant("1", "NoCoverage"), mutant("2", "Ignored"), mutant("3", "RuntimeError")] },
      },
      {},
    );
    const { score, counts } = mutationScore(report);
    expect(score).toBe(50);
    expect(counts).toEqual({ Killed: 1, Timeout: 1, Survived: 1, NoCoverage: 1, Ignored: 1, RuntimeError: 1 });
    expect(mutationScore({ files: {} }).score).toBeNaN();
  });

  it("shows each file's ignored mutants beside its score, and the score they would make counted as undetected", () => {
    const report = {
      files: {
        "lib/b.ts": {
          source: "b",
          mutants: [mutant("1", "Killed"), mutant("2", "Ignored"), mutant("3", "Ignored"), mutant("4", "Survived")],
        },
        "lib/a.ts": { source: "a", mutants: [mutant("5", "Timeout"), mutant("6", "NoCoverage"), mutant("7", "CompileError")] },
      },
    };
    expect(scoreTable(report).split("\n")).toEqual([
      "| file | score | ignored counted as undetected | ignored | mutants (judged and ignored) |",
      "|---|---:|---:|---:|---:|",
      "| lib/a.ts | 50.00 % | 50.00 % | 0 | 2 |",
      "| lib/b.ts | 50.00 % | 25.00 % | 2 | 4 |",
      "| all | 50.00 % | 33.33 % | 2 | 6 |",
    ]);
  });

  it("gives a row per folder when asked, each folder's files together", () => {
    const report = {
      files: {
        "lib/x/a.ts": { source: "a", mutants: [mutant("1", "Killed"), mutant("2", "Survived")] },
        "lib/x/b.ts": { source: "b", mutants: [mutant("3", "Killed"), mutant("4", "Ignored")] },
        "lib/y/c.ts": { source: "c", mutants: [mutant("5", "NoCoverage")] },
      },
    };
    expect(scoreTable(report, { by: "folder" }).split("\n")).toEqual([
      "| folder | score | ignored counted as undetected | ignored | mutants (judged and ignored) |",
      "|---|---:|---:|---:|---:|",
      "| lib/x/ | 66.67 % | 50.00 % | 1 | 4 |",
      "| lib/y/ | 0.00 % | 0.00 % | 0 | 1 |",
      "| all | 50.00 % | 40.00 % | 1 | 5 |",
    ]);
  });
  it("names the tests that judged static mutants (a module loaded inside a test), and says nothing when every static one was left out", () => {
    const loadedInATest = part(
      {
        "lib/a.ts": {
          source: "a",
          mutants: [
            { ...mutant("1", "Survived", ["3-0"]), static: true },
            { ...mutant("2", "Survived", ["3-0", "3-1"]), static: true },
            { ...mutant("3", "Ignored"), static: true },
            mutant("4", "Survived", ["3-1"]),
          ],
        },
      },
      { "t/x": ["composes", "reads"] },
    );
    expect(staticJudgedLines(loadedInATest)).toEqual([
      "2 static mutant(s) judged by the tests that first ran them (a module loaded, or a table built on first use, inside a test), not left out as static:",
      "  2 by t/x: composes",
      "  1 by t/x: reads",
    ]);
    const leftOut = part(
      { "lib/a.ts": { source: "a", mutants: [{ ...mutant("1", "Ignored"), static: true }, mutant("2", "Killed", ["3-0"])] } },
      {
        "t/x": ["composes"],
      },
    );
    expect(staticJudgedLines(leftOut)).toEqual([]);
  });
});
