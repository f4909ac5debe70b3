import { readFileSync } from "node:fs";
import { join } from "node:path";
import { handler as fallback } from "../../handlers/http/fallback";
import { resetProcessSingleton } from "../../lib/store/processSingleton";
import { makeRouter, type RouteBinding } from "./router";

const ROOT = join(__dirname, "../..");

/** Every function serverless.yml declares, bound to its exported handler (so the tests follow the yml). */
function bindings(): RouteBinding[] {
  const yml = readFileSync(join(ROOT, "serverless.yml"), "utf8");
  const pattern = /handler: (\S+)\.handler\n(?:\s+role: \S+\n)?\s+events:\n\s+- httpApi: \{ method: (\w+), path: "?([^"\s]+?)"? \}/g;
  return [...yml.matchAll(pattern)].map(([, file, method, path]) => ({
    method,
    path,
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    handler: require(join(ROOT, file)).handler,
  }));
}

/** The whole API (both services) behind an API Gateway-like router. */
export const api = makeRouter(bindings(), fallback);

/** A fresh container: empty stores (demo nodes come back on first use when DEMO_NODES=on). */
export function freshContainer(): void {
  resetProcessSingleton("taskStore.memory");
  resetProcessSingleton("provisioningStores.memory");
}
