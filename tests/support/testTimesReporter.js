// A jest reporter (issue 36): each test file's time, by tier (the jest project's display name),
// and each test case's, into a file of its own in reports/test-times/ (the two jest runs of `npm
// test` end at any time, side by side: each writes its own file, and nothing is read and written
// back; `.ci/run` empties the folder first and prints the whole with scripts/testTimes.js). At the end
// of a run it prints that run's tiers: files, tests, wall time (first file's start to last file's
// end) and the sum of the files' times (more than the wall time when files run side by side).
const { mkdirSync, writeFileSync } = require("node:fs");
const { join, relative } = require("node:path");
const { TIMES_FOLDER, formatTiers } = require("../../scripts/testTimes");

class TestTimesReporter {
  constructor(globalConfig) {
    this.root = globalConfig.rootDir;
    this.files = [];
  }

  onTestResult(test, result) {
    const tier = test.context.config.displayName?.name ?? "default";
    this.files.push({
      tier,
      file: relative(this.root, result.testFilePath),
      start: result.perfStats.start,
      end: result.perfStats.end,
      tests: result.testResults.map((test) => ({ name: test.fullName, ms: test.duration ?? 0, status: test.status })),
    });
  }

  onRunComplete() {
    if (this.files.length === 0) return;
    mkdirSync(TIMES_FOLDER, { recursive: true });
    writeFileSync(join(TIMES_FOLDER, `run-${Date.now()}-${process.pid}.json`), `${JSON.stringify(this.files)}\n`);
    process.stderr.write(`\n${formatTiers(this.files)}\n`);
  }
}

module.exports = TestTimesReporter;
