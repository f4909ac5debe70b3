// jest's test sequencer for `npm test` (issue 36): the longest files first, by the times of a
// measured run committed in tests/support/fileSeconds.json, so that the two workers of the server
// tiers do not end on a long file started late. jest's own sequencer orders by the durations in its
// cache, which a clean clone (CI) does not have: it then falls back to file size, and a small file
// that boots a real OS for nine minutes starts last. A file not in the list (a new one) counts as
// UNLISTED_SECONDS, a typical end-to-end file's; `node scripts/testTimes.js --file-seconds` writes
// the list from the last run (reports/test-times/).
const { relative } = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;
const measured = require("./fileSeconds.json");

const UNLISTED_SECONDS = 30;

/** A file's key in fileSeconds.json: its tier (the jest project) and its path from the root. */
const keyOf = (test) => `${test.context.config.displayName?.name ?? "default"} ${relative(test.context.config.rootDir, test.path)}`;

class LongestFirst extends Sequencer {
  sort(tests) {
    const seconds = new Map(tests.map((test) => [test, measured[keyOf(test)] ?? UNLISTED_SECONDS]));
    return [...tests].sort((a, b) => seconds.get(b) - seconds.get(a));
  }
}

module.exports = LongestFirst;
module.exports.keyOf = keyOf;
module.exports.UNLISTED_SECONDS = UNLISTED_SECONDS;
