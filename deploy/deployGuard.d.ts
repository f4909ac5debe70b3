/** Types of deployGuard.js (plain JavaScript: the Serverless CLI loads it). */
export function invocation(argv: readonly string[]): { command: string | undefined; stage: string };
export function assertSafeDeploy(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): void;
export const DEPLOYED_DEFAULTS: { readonly PROVISIONING_AUTH: "on"; readonly CORS_ORIGINS: "none" };
export const OPEN_SETTING: "ALLOW_OPEN_PROVISIONING";
