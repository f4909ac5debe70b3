// serverless.yml reads its `functions:` from the route registry (lib/http/routes), which is
// TypeScript: tsx loads it for the Serverless CLI. The settings are checked here too, so that a
// bad one stops `serverless package`/`deploy` with its name, instead of a deployment that then
// answers 500 to every request.
const { require: tsxRequire } = require("tsx/cjs/api");
const { assertSafeDeploy } = require("./deployGuard");

module.exports.functions = () => {
  const { readSettings } = tsxRequire("../lib/config/settings.ts", __filename);
  readSettings(process.env);
  assertSafeDeploy(process.argv, process.env);
  return tsxRequire("../lib/http/routes/serverlessFunctions.ts", __filename).serverlessFunctions();
};
