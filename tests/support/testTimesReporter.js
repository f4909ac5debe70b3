// A jest reporter (issue 36): each test file's time, by tier (the jest project's display name),
// and each test case's, added to reports/test-times.json (the two jest runs of `npm test` add to
// one file; `.ci/run` empties it first and prints the whole with scripts/testTimes.js). At the end
// of a run it prints that run's tiers: files, tests, wall time (first file's start to last file's
// end) and the sum of the files' times (more than the wall time when files run side by side).
const { mkdirSync, readFileSync, writeFileSync } = require("node:fs");
const { join, relative } = require("node:path");
const { formatTiers } = require("../../scripts/testTimes");

const FILE = join(__dirname, "../../reports/test-times.json");

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
    let saved = [];
    try {
      saved = JSON.parse(readFileSync(FILE, "utf8"));
    } catch {
      // the first run
    }
    mkdirSync(join(FILE, ".."), { recursive: true });
    writeFileSync(FILE, `${JSON.stringify([...saved, ...this.files])}\n`);
    if (this.files.length > 0) process.stderr.write(`\n${formatTiers(this.files)}\n`);
  }
}

module.exports = TestTimesReporter;
