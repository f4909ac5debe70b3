// A deployment is secure by default (issue 25): `serverless package` and `deploy` for any stage but
// `local` (npm start and the tests: serverless offline on this machine) refuse to make a stack whose
// operators' API anyone on the internet could use. Plain JavaScript: the Serverless CLI loads it
// through deploy/functions.js before anything is packaged.

/** The deploying command and stage, as the Serverless CLI was given them. */
function invocation(argv) {
  const args = argv.slice(2);
  const command = args.find((arg) => !arg.startsWith("-"));
  const at = args.findIndex((arg) => arg === "--stage" || arg === "-s");
  const inline = args.find((arg) => arg.startsWith("--stage="));
  const stage = inline ? inline.slice("--stage=".length) : at >= 0 ? args[at + 1] : "dev";
  return { command, stage };
}

/** The settings a deployed stage gets when the deploying shell says nothing (serverless.yml's params). */
const DEPLOYED_DEFAULTS = { PROVISIONING_AUTH: "on", CORS_ORIGINS: "none", BOOT_VIA_RELAY: "on" };

/** The loud setting that lets a lab deploy the operators' API without credentials. */
const OPEN_SETTING = "ALLOW_OPEN_PROVISIONING";

/** The loud setting that lets a stage answer boot traffic no relay forwarded (issue 35 §2, docs/security.md). */
const OPEN_BOOT_SETTING = "ALLOW_OPEN_BOOT";

/**
 * Throws, naming the setting, when a package or deploy would make a stack with the operators' API
 * open (PROVISIONING_AUTH=off without ALLOW_OPEN_PROVISIONING=yes) or asking for credentials no
 * one can give (auth on, and neither a user list, AUTH_USERS_PARAMETER or AUTH_USERS, nor an
 * identity provider, OIDC_ISSUER).
 */
function assertSafeDeploy(argv, env) {
  const { command, stage } = invocation(argv);
  if (command !== "package" && command !== "deploy") return;
  if (stage === "local") return;
  assertClosedBootPath(stage, env);
  const provisioningAuth = env.PROVISIONING_AUTH ?? DEPLOYED_DEFAULTS.PROVISIONING_AUTH;
  if (provisioningAuth === "off") {
    if (env[OPEN_SETTING] === "yes") return;
    throw new Error(
      `PROVISIONING_AUTH=off would let anyone on the internet create nodes and run workflows on stage "${stage}": leave it on, or set ${OPEN_SETTING}=yes for a lab that no one else can reach`,
    );
  }
  const protectedRoutes = provisioningAuth === "on" || (env.TASKS_AUTH ?? "off") !== "off";
  const hasUsers = ["AUTH_USERS_PARAMETER", "AUTH_USERS", "OIDC_ISSUER"].some((name) => (env[name] ?? "").trim() !== "");
  if (protectedRoutes && !hasUsers) {
    throw new Error(
      `Stage "${stage}" asks for credentials (PROVISIONING_AUTH=on) but has no users: set AUTH_USERS_PARAMETER to an SSM SecureString parameter holding the user list (or AUTH_USERS), or OIDC_ISSUER and OIDC_AUDIENCE to sign in with an identity provider`,
    );
  }
}

/**
 * Throws when the stage would answer boot traffic that no site's relay forwarded (BOOT_VIA_RELAY=off)
 * without ALLOW_OPEN_BOOT=yes: anyone on the internet who knows or guesses a MAC could then walk a
 * machine's profile, boot token, install script, machine credential and user-data (issue 35 §2).
 */
function assertClosedBootPath(stage, env) {
  const bootViaRelay = env.BOOT_VIA_RELAY ?? DEPLOYED_DEFAULTS.BOOT_VIA_RELAY;
  if (bootViaRelay !== "off" || env[OPEN_BOOT_SETTING] === "yes") return;
  throw new Error(
    `BOOT_VIA_RELAY=off would let anyone on the internet who knows a MAC fetch its boot profile, install script, machine credential and user-data on stage "${stage}": leave it on (machines boot through their site's relay), or set ${OPEN_BOOT_SETTING}=yes for a lab that no one else can reach (docs/security.md)`,
  );
}

module.exports = { assertSafeDeploy, invocation, DEPLOYED_DEFAULTS, OPEN_SETTING, OPEN_BOOT_SETTING };
