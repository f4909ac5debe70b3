/**
 * Mutation testing of the domain (issue 23): `npm run test:mutation` mutates lib/provisioning and
 * lib/tasks and runs the fast tier against each mutant (only the tests that cover it). The build
 * fails below `thresholds.break`, the score reached, to be raised as tests are added.
 * `npm run test:mutation -- --mutate lib/provisioning/rules/rules.ts` scores one file.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: "jest",
  jest: { configFile: "jest.stryker.config.js", enableFindRelatedTests: true },
  coverageAnalysis: "all",
  mutate: ["lib/provisioning/**/*.ts", "lib/tasks/**/*.ts", "!lib/**/*.generated.ts"],
  // swc strips types without checking them, and the generated-sources test compares files byte for byte.
  disableTypeChecks: false,
  concurrency: 2,
  timeoutMS: 5000,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 85, low: 70, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
