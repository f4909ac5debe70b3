// jest's test sequencer for mutation testing (`npm run test:mutation`, jest.stryker.config.js): runs
// a mutant's covering tests without loading the test files that hold none of them.
//
// Why: StrykerJS's jest runner judges a mutant by the tests that reached it (`coverageAnalysis:
// "perTest"`), passed to jest as a test-name pattern, but over every test file related to the
// mutated module (`--findRelatedTests`). jest loads each of those files, module graph and all, to
// learn that none of its tests match: a mutant of a module most of the domain imports loaded a
// hundred files to run three tests. Measured in docs/development.md.
//
// How: the dry run (every test, no name pattern) records which file holds which test's full name
// (cacheResults, into the sandbox, so both of Stryker's runner processes read it); a mutant's run
// then keeps the files that hold a test its pattern matches, as jest would match it (case-blind
// against the full name). A file the record does not name is kept: it can only cost time.
const { existsSync, readFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

const RECORD = ".stryker-test-names.json";

/** The record at `path`, or undefined before the dry run wrote it. */
const readRecord = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined);

class CoveringFilesOnly extends Sequencer {
  constructor(options) {
    super(options);
    this.globalConfig = options.globalConfig;
  }

  recordPath() {
    return join(this.globalConfig.rootDir, RECORD);
  }

  /** file → the full names of its tests, as the dry run saw them (undefined before it). */
  names() {
    if (this.loaded === undefined) this.loaded = readRecord(this.recordPath()) ?? null;
    return this.loaded;
  }

  sort(tests) {
    const pattern = this.globalConfig.testNamePattern;
    const names = pattern ? this.names() : null;
    if (!names) return super.sort(tests);
    const matches = new RegExp(pattern, "i");
    return super.sort(tests.filter((test) => names[test.path] === undefined || names[test.path].some((name) => matches.test(name))));
  }

  cacheResults(tests, results) {
    super.cacheResults(tests, results);
    if (this.globalConfig.testNamePattern) return;
    const names = readRecord(this.recordPath()) ?? {};
    for (const file of results.testResults) names[file.testFilePath] = file.testResults.map((test) => test.fullName);
    writeFileSync(this.recordPath(), JSON.stringify(names));
    this.loaded = names;
  }
}

module.exports = CoveringFilesOnly;
