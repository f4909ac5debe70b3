// serverless.yml reads its `functions:` and the functions' roles from the route registry
// (lib/http/routes), which is TypeScript: tsx loads it for the Serverless CLI. The settings are
// checked here too, so that a bad one stops `serverless package`/`deploy` with its name, instead
// of a deployment that then answers 500 to every request.
const tsxRequire = require("./tsxRequire");
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { assertSafeDeploy, DEPLOYED_DEFAULTS, invocation } = require("./deployGuard");

const registry = () => tsxRequire("../lib/http/routes/serverlessFunctions.ts", __filename);

/** A packaging check's setting (the layout check, templates only) stops a `deploy`, named. */
function refuseDeployWith(setting) {
  if (invocation(process.argv).command === "deploy") throw new Error(`${setting} is for \`serverless package\` only: unset it to deploy`);
}

/**
 * The registry's endpoints, or, under LAYOUT_CHECK_FUNCTIONS=N (the deploy tier's check of the
 * stack layout, lib/deploy/grownRegistry.ts), as many more copies as make N functions in all.
 * A `deploy` with it set is refused: it is a packaging check, never a service.
 */
function routesFor(store) {
  const { ROUTES } = tsxRequire("../lib/http/routes/index.ts", __filename);
  const grown = tsxRequire("../lib/deploy/grownRegistry.ts", __filename);
  const wanted = grown.layoutCheckFunctions(process.env);
  if (wanted === undefined) return ROUTES;
  refuseDeployWith(grown.LAYOUT_CHECK_SETTING);
  const others = Object.keys(registry().serverlessFunctions(store)).length - ROUTES.length;
  return grown.grownRoutes(ROUTES, wanted - others - ROUTES.length);
}

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

/**
 * The local stage runs one bundle holding every function (lib/deploy/localBundle.ts): its entry is
 * written here, and rewritten only when it changes, so that servers started side by side from one
 * checkout (the test tiers) read a whole file and the watcher sees no change.
 */
function onLocalBundle(functions, store) {
  const local = tsxRequire("../lib/deploy/localBundle.ts", __filename);
  const entry = local.localEntryPath(store);
  const text = local.localEntry(functions, entry);
  const file = join(__dirname, "..", entry);
  let current;
  try {
    current = readFileSync(file, "utf8");
  } catch {
    // the first start
  }
  if (current !== text) {
    mkdirSync(join(__dirname, "..", local.LOCAL_ENTRY_FOLDER), { recursive: true });
    const written = `${file}.${process.pid}`;
    writeFileSync(written, text);
    renameSync(written, file);
  }
  return local.onLocalBundle(functions, entry);
}

/**
 * PACKAGE_TEMPLATES_ONLY=on (lib/deploy/templatesOnly.ts): every function's artifact is one empty
 * zip and nothing is built. The zip is written where serverless-esbuild keeps the artifacts it
 * builds (its work folder's .serverless, joined to the service folder as it joins it), which it
 * moves into the package. Refused for a deploy.
 */
function templatesOnly(functions, store) {
  const only = tsxRequire("../lib/deploy/templatesOnly.ts", __filename);
  if (!only.templatesOnly(process.env)) return functions;
  refuseDeployWith(only.TEMPLATES_ONLY_SETTING);
  const folder = join(__dirname, "..", process.env.ESBUILD_WORK_FOLDER || `.esbuild-${store}`, ".serverless");
  mkdirSync(folder, { recursive: true });
  const artifact = join(folder, "templates-only.zip");
  writeFileSync(artifact, only.EMPTY_ZIP);
  return only.withPlaceholderArtifacts(functions, artifact);
}

module.exports.functions = ({ options } = {}) => {
  const { store } = checkedSettings();
  const stage = options?.stage ?? invocation(process.argv).stage;
  // The local stage has the WebSocket API's functions with either store (serverless offline serves them).
  const socket = registry().socketFor(store, stage === "local");
  const functions = templatesOnly(
    registry().serverlessFunctions(
      store,
      routesFor(store),
      undefined,
      undefined,
      undefined,
      socket,
      stage,
      // The HTTP API's JWT authorizer on the routes that ask for credentials (OIDC_AUTHORIZER=gateway).
      registry().stageAuthorizer(process.env, stage, DEPLOYED_DEFAULTS),
    ),
    store,
  );
  // The local stage, in process or in worker threads (OFFLINE_IN_PROCESS=false: npm run
  // start:dynamodb, the e2e-dynamodb tier), runs the one bundle. A worker loads all of it (about
  // 140 ms of CPU, against 26 ms for a function's own bundle), but a server starts in seconds
  // instead of building 136 bundles (23 s alone, 62 s under load). Deployed stages bundle each
  // function.
  return stage === "local" ? onLocalBundle(functions, store) : functions;
};

// The HTTP API's JWT authorizer (OIDC_AUTHORIZER=gateway), or none.
module.exports.httpApiAuthorizers = () => registry().httpApiAuthorizers(checkedSettings());

// The roles, the user-list policy and the alarm subscription (lib/deploy/serverlessRoles.ts).
module.exports.resources = () =>
  tsxRequire("../lib/deploy/serverlessRoles.ts", __filename).stackResources(
    checkedSettings().store,
    {
      authUsersParameter: process.env.AUTH_USERS_PARAMETER?.trim() ?? "",
      tracing: process.env.TRACING?.trim() === "on",
      alarmEmail: process.env.ALARM_EMAIL?.trim() ?? "",
    },
    routesFor(checkedSettings().store),
  );
