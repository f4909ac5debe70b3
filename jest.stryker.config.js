/**
 * The jest configuration StrykerJS runs (`npm run test:mutation`): the unit tier as one project
 * (the jest runner's per-test coverage needs a single project), with jest.config.js's transform and
 * module mapping. The domain's own unit tests judge it: the handler tier reaches the domain too,
 * but loading it for each mutant made a full run take hours here.
 * @type {import('jest').Config}
 */
const { projects } = require("./jest.config");

const [unit] = projects;
module.exports = {
  ...unit,
  displayName: undefined,
  testMatch: ["<rootDir>/tests/unit/**/*.test.ts"],
  // cloud-init's own renderers on each plan shape: a compatibility check (half a second a call), not
  // the rendering's logic (netplan.test.ts pins that exactly); with it, each mutant of the network
  // plan's modules took ten seconds (issue 54).
  testPathIgnorePatterns: [
    ...(unit.testPathIgnorePatterns ?? ["/node_modules/"]),
    "/tests/unit/provisioning/network/netplanCloudInit\\.test\\.ts$",
  ],
  setupFiles: [...unit.setupFiles, "<rootDir>/tests/support/strykerFastCheck.ts"],
  // A mutant's run loads only the test files that hold the tests that reached it.
  testSequencer: "<rootDir>/tests/support/strykerSequencer.js",
};
