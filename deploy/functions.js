// serverless.yml reads its `functions:` from the route registry (lib/http/routes), which is
// TypeScript: tsx loads it for the Serverless CLI.
const { require: tsxRequire } = require("tsx/cjs/api");

module.exports.functions = () => tsxRequire("../lib/http/routes/serverlessFunctions.ts", __filename).serverlessFunctions();
