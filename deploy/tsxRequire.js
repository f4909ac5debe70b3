// Loads the project's TypeScript modules into the Serverless CLI's process (deploy/*.js), through
// tsx in a namespace of its own (its hooks stay off the CLI's own modules). The namespace is named,
// not tsx's default (the time of the first call): tsx caches what it compiled under the module's
// path, namespace included, so a new name at each start compiled every module again (1 to 2 s of
// each `serverless offline` start, and a test run starts about 30 of them).
const { register } = require("tsx/cjs/api");

let scoped;

/** tsx's require, in this project's one namespace: `tsxRequire("../lib/x.ts", __filename)`. */
module.exports = function tsxRequire(id, fromFile) {
  scoped ??= register({ namespace: "serverless-config" });
  return scoped.require(id, fromFile);
};
