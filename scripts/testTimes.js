// node scripts/testTimes.js [--slowest N] — the test tiers' times from reports/test-times/ (a file
// per jest run, written by tests/support/testTimesReporter.js): a line per tier, then the N slowest
// test cases. `--file-seconds`: each file's seconds as JSON, for tests/support/fileSeconds.json
// (the order in which `npm test` starts its files: tests/support/longestFirst.js).
// Plain JavaScript: jest loads it as a reporter's helper, and `.ci/run` runs it after `npm test`.
const { readdirSync, readFileSync } = require("node:fs");
const { join } = require("node:path");

const TIMES_FOLDER = join(__dirname, "../reports/test-times");

/** Every run's files in `folder`, together (none when nothing ran). */
function readTimes(folder = TIMES_FOLDER) {
  let names = [];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith(".json"));
  } catch {
    // no run yet
  }
  return names.sort().flatMap((name) => JSON.parse(readFileSync(join(folder, name), "utf8")));
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** A table of the tiers in the order they first started: files, tests, wall time and the sum of the files' times. */
function formatTiers(files) {
  const tiers = new Map();
  for (const file of [...files].sort((a, b) => a.start - b.start)) {
    const tier = tiers.get(file.tier) ?? { files: 0, tests: 0, start: file.start, end: file.end, sum: 0 };
    tier.files += 1;
    tier.tests += file.tests.length;
    tier.start = Math.min(tier.start, file.start);
    tier.end = Math.max(tier.end, file.end);
    tier.sum += file.end - file.start;
    tiers.set(file.tier, tier);
  }
  const start = Math.min(...files.map((file) => file.start));
  const end = Math.max(...files.map((file) => file.end));
  return [
    "test times by tier (wall: first file's start to last file's end; sum: the files' own times)",
    "| tier | files | tests | wall | sum |",
    "|---|---:|---:|---:|---:|",
    ...[...tiers].map(([name, t]) => `| ${name} | ${t.files} | ${t.tests} | ${seconds(t.end - t.start)} | ${seconds(t.sum)} |`),
    `| all | ${files.length} | ${files.reduce((n, file) => n + file.tests.length, 0)} | ${seconds(end - start)} | ${seconds(files.reduce((n, file) => n + file.end - file.start, 0))} |`,
  ].join("\n");
}

/** The slowest test cases, with their tier and file. */
function formatSlowest(files, count) {
  const cases = files.flatMap((file) => file.tests.map((test) => ({ ...test, tier: file.tier, file: file.file })));
  return [
    `the ${count} slowest test cases`,
    "| tier | file | test | time |",
    "|---|---|---|---:|",
    ...cases
      .sort((a, b) => b.ms - a.ms)
      .slice(0, count)
      .map((test) => `| ${test.tier} | ${test.file} | ${test.name.replace(/\|/g, "\\|")} | ${seconds(test.ms)} |`),
  ].join("\n");
}

/** Each file's seconds, keyed as tests/support/longestFirst.js reads them ("tier path"), longest first. */
function fileSeconds(files) {
  const sorted = [...files].sort((a, b) => b.end - b.start - (a.end - a.start));
  return Object.fromEntries(sorted.map((file) => [`${file.tier} ${file.file}`, Math.round((file.end - file.start) / 1000)]));
}

module.exports = { TIMES_FOLDER, readTimes, formatTiers, formatSlowest, fileSeconds };

if (require.main === module) {
  if (process.argv.includes("--file-seconds")) {
    process.stdout.write(`${JSON.stringify(fileSeconds(readTimes()), null, 2)}\n`);
    process.exit(0);
  }
  const at = process.argv.indexOf("--slowest");
  const count = at >= 0 ? Number(process.argv[at + 1]) : 20;
  const files = readTimes();
  if (files.length === 0) {
    process.stdout.write("no test times recorded (reports/test-times/): run the tests first\n");
    process.exit(0);
  }
  process.stdout.write(`${formatTiers(files)}\n\n${formatSlowest(files, count)}\n`);
}
