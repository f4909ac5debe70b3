import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The mutation run's sequencer (tests/support/strykerSequencer.js): a mutant's run loads only the files holding its covering tests. */
describe("the mutation run's test sequencer (strykerSequencer)", () => {
  const CoveringFilesOnly = require("../../support/strykerSequencer");
  const rootDir = mkdtempSync(join(tmpdir(), "stryker-sequencer-"));
  const context = { config: { cache: false }, hasteFS: { getSize: () => 1 } };
  const test = (path: string) => ({ path, context });
  const sequencer = (testNamePattern?: string) => new CoveringFilesOnly({ contexts: [], globalConfig: { rootDir, testNamePattern } });
  const dryRun = (files: Record<string, string[]>) =>
    sequencer().cacheResults([], {
      testResults: Object.entries(files).map(([testFilePath, names]) => ({
        testFilePath,
        testResults: names.map((fullName) => ({ fullName })),
      })),
    });
  const paths = (tests: { path: string }[]) => tests.map((one) => one.path).sort();

  it("runs every related file until the dry run has said which file holds which test", () => {
    expect(paths(sequencer("(a works)").sort([test("/a.test.ts"), test("/b.test.ts")]))).toEqual(["/a.test.ts", "/b.test.ts"]);
  });

  it("keeps the files holding a test the mutant's pattern matches, case-blind as jest matches, and files the dry run did not see", () => {
    dryRun({
      "/a.test.ts": ["node store keeps a node"],
      "/b.test.ts": ["relay leases a job", "relay gives it back"],
      "/c.test.ts": ["other"],
    });
    const files = [test("/a.test.ts"), test("/b.test.ts"), test("/c.test.ts"), test("/new.test.ts")];
    expect(paths(sequencer("(Relay gives it back)").sort(files))).toEqual(["/b.test.ts", "/new.test.ts"]);
    expect(paths(sequencer("(node store keeps a node)|(relay leases a job)").sort(files))).toEqual([
      "/a.test.ts",
      "/b.test.ts",
      "/new.test.ts",
    ]);
  });

  it("runs every file when no pattern is given (a static mutant, the dry run), and adds a later run's names to the record", () => {
    const files = [test("/a.test.ts"), test("/d.test.ts")];
    expect(paths(sequencer().sort(files))).toEqual(["/a.test.ts", "/d.test.ts"]);
    dryRun({ "/d.test.ts": ["disk rule picks a disk"] });
    expect(paths(sequencer("(disk rule picks a disk)").sort([...files, test("/b.test.ts")]))).toEqual(["/d.test.ts"]);
  });
});
