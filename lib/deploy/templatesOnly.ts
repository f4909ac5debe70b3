/*
 * Templates only (issue 36): `serverless package` with PACKAGE_TEMPLATES_ONLY=on writes the stack's
 * templates without building the functions' code; every function's artifact is one empty zip. The
 * deploy tier's checks of what the templates say (the layout of 200 functions, every setting
 * reaching every function) need no bundle, and building 136 to 200 minified bundles took them
 * most of their two minutes. Never deployed: deploy/functions.js refuses a `deploy` with it set.
 */

/** The setting: package the templates, not the code. */
export const TEMPLATES_ONLY_SETTING = "PACKAGE_TEMPLATES_ONLY";

/** An empty zip archive (its end-of-central-directory record only): the placeholder artifact. */
export const EMPTY_ZIP = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);

/** The setting's value: true for "on", false when unset or "off". */
export function templatesOnly(env: Record<string, string | undefined>): boolean {
  const value = env[TEMPLATES_ONLY_SETTING]?.trim();
  if (value === undefined || value === "" || value === "off") return false;
  if (value === "on") return true;
  throw new Error(`${TEMPLATES_ONLY_SETTING} must be one of on, off (got "${value}")`);
}

/** The functions with the placeholder as their artifact and no build (serverless-esbuild's skipEsbuild). */
export function withPlaceholderArtifacts<F extends object>(functions: Record<string, F>, artifact: string): Record<string, F> {
  return Object.fromEntries(Object.entries(functions).map(([name, fn]) => [name, { ...fn, skipEsbuild: true, package: { artifact } }]));
}
