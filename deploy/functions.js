// serverless.yml reads its `functions:` and the functions' roles from the route registry
// (lib/http/routes), which is TypeScript: tsx loads it for the Serverless CLI. The settings are
// checked here too, so that a bad one stops `serverless package`/`deploy` with its name, instead
// of a deployment that then answers 500 to every request.
const { require: tsxRequire } = require("tsx/cjs/api");
const { assertSafeDeploy } = require("./deployGuard");

const registry = () => tsxRequire("../lib/http/routes/serverlessFunctions.ts", __filename);

/** The checked settings (the store the functions and roles are for among them). */
function checkedSettings() {
  const { readSettings } = tsxRequire("../lib/config/settings.ts", __filename);
  const settings = readSettings(process.env);
  assertSafeDeploy(process.argv, process.env);
  // Deploy-only settings (they configure the stack, not the functions).
  const tracing = process.env.TRACING?.trim();
  if (tracing && tracing !== "on" && tracing !== "off") throw new Error(`TRACING must be one of on, off (got "${tracing}")`);
  return settings;
}

module.exports.functions = () => registry().serverlessFunctions(checkedSettings().store);

// The roles, the user-list policy and the alarm subscription (lib/deploy/serverlessRoles.ts).
module.exports.resources = () =>
  tsxRequire("../lib/deploy/serverlessRoles.ts", __filename).stackResources(checkedSettings().store, {
    authUsersParameter: process.env.AUTH_USERS_PARAMETER?.trim() ?? "",
    tracing: process.env.TRACING?.trim() === "on",
    alarmEmail: process.env.ALARM_EMAIL?.trim() ?? "",
  });
