/**
 * The jest configuration StrykerJS runs (`npm run test:mutation`): the unit and handler tiers as one
 * project, because the jest runner's per-test coverage needs a single project. Same transform and
 * module mapping as jest.config.js, so a mutant is judged by the tests the fast tier runs.
 * @type {import('jest').Config}
 */
const { projects } = require("./jest.config");

const [unit] = projects;
module.exports = {
  ...unit,
  displayName: undefined,
  testMatch: ["<rootDir>/tests/unit/**/*.test.ts"],
};
