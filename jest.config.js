/** @type {import('jest').Config} */
const shared = {
  testEnvironment: "node",
  // @middy/* 7.x is ESM-only ("exports" has only an "import" condition): jest's CJS resolver cannot
  // find it, so point jest at the ESM file and let @swc/jest turn it (and our TS) into CJS.
  moduleNameMapper: { "^@middy/([^/]+)$": "<rootDir>/node_modules/@middy/$1/index.js" },
  transformIgnorePatterns: ["/node_modules/(?!@middy/)"],
  transform: {
    "^.+\\.(t|j)s$": [
      "@swc/jest",
      { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "commonjs" } },
    ],
  },
  setupFiles: ["<rootDir>/tests/support/quietEnv.ts"],
};

module.exports = {
  projects: [
    { ...shared, displayName: "unit", testMatch: ["<rootDir>/tests/unit/**/*.test.ts"] },
    { ...shared, displayName: "handler", testMatch: ["<rootDir>/tests/handlers/**/*.test.ts"] },
    { ...shared, displayName: "e2e", testMatch: ["<rootDir>/tests/e2e/**/*.test.ts"], slowTestThreshold: 30 },
  ],
};
