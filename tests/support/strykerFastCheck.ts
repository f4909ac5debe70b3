import fc from "fast-check";

// Under StrykerJS only (jest.stryker.config.js): fewer runs per property, since each mutant runs
// the tests that cover it again. The fast tier itself keeps fast-check's defaults.
fc.configureGlobal({ numRuns: 20 });
