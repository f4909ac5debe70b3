// Tests read settings from process.env; start every test file from the documented defaults,
// without request log lines on stdout (tests that check logging switch them back on).
for (const name of Object.keys(process.env)) {
  if (
    /^(TASKS_|PROVISIONING_|AUTH_|PUBLIC_BASE_URL$|API_SERVER$|CORS_ORIGINS$|BODY_LIMIT_BYTES$|STORE$|DYNAMODB_|DEMO_NODES$|MEMORY_STORE_|LOG_REQUESTS$|LOG_LEVEL$|METRICS|HOOK_|OIDC_)/.test(
      name,
    )
  ) {
    delete process.env[name];
  }
}
process.env.LOG_REQUESTS = "off";
process.env.METRICS = "off";
// Hooks can be made, as under the local stage (whose key is random: deploy/localSecrets.js). This
// key signs only the tests' own deliveries. Tests of a deployment without a key unset it.
process.env.HOOK_SIGNING_KEY = "tests-only-hook-signing-key-signs-nothing-real";
// The local Node is 20; the deployed runtime is 22. The AWS SDK's reminder about that is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
