import { posix } from "node:path";
import type { ServerlessFunction } from "../http/routes/serverlessFunctions";

/*
 * The local stage's one bundle (issue 36): `serverless offline --stage local` builds a single entry
 * that exports every function's handler under the function's name, instead of one bundle per
 * function. Built once (half a second, not 136 builds), it is loaded once by the in-process server
 * (one module graph instead of one copy of the shared code per function) and once per worker in
 * worker-thread mode (each worker still a container of its own). Each export requires its
 * handler's module on the function's first call, so a function's modules start when it is first
 * called, as in its own bundle (a cold start), and a worker starts only its function's (61 MB
 * against 73 MB for the whole graph). A deployment packages one bundle per function as before.
 */

/** Where the entry is written, from the repository root (git ignores it). */
export const LOCAL_ENTRY_FOLDER = ".local-bundle";

/** The entry's path for a store: each store's bundle holds that store's adapters only. */
export const localEntryPath = (store: string): string => posix.join(LOCAL_ENTRY_FOLDER, `${store}.ts`);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The handler's module (from the repository root) and its export, from serverless.yml's `module.export`. */
function moduleOf(handler: string): { module: string; name: string } {
  const dot = handler.lastIndexOf(".");
  if (dot < 1) throw new Error(`handler "${handler}" does not name a module and its export`);
  return { module: handler.slice(0, dot), name: handler.slice(dot + 1) };
}

/** The entry's text: one export per function, named as the function, calling its handler's module. */
export function localEntry(functions: Record<string, ServerlessFunction>, entryPath: string): string {
  const from = posix.dirname(entryPath);
  const lines = Object.entries(functions).map(([name, fn]) => {
    if (!IDENTIFIER.test(name)) throw new Error(`function name "${name}" cannot name an export of the local bundle`);
    const { module, name: exported } = moduleOf(fn.handler);
    const relative = posix.relative(from, module);
    const specifier = relative.startsWith(".") ? relative : `./${relative}`;
    return `export const ${name} = (...args: unknown[]) => require("${specifier}").${exported}(...args);`;
  });
  return ["// Written by deploy/functions.js for `serverless offline --stage local` (lib/deploy/localBundle.ts).", ...lines, ""].join("\n");
}

/** The same functions, each handler now its own export of the one entry. */
export function onLocalBundle(functions: Record<string, ServerlessFunction>, entryPath: string): Record<string, ServerlessFunction> {
  const entryModule = entryPath.replace(/\.ts$/, "");
  return Object.fromEntries(
    Object.entries(functions).map(([name, fn]) => [name, { ...withLocalEnvironment(fn), handler: `${entryModule}.${name}` }]),
  );
}

/**
 * A function's environment without the values CloudFormation resolves (a reference to a resource
 * of the stack: serverless offline has no stack), so that the provider's local values stand
 * (serverless.yml's params: RELAY_PUSH_URL is the local WebSocket port's).
 */
function withLocalEnvironment(fn: ServerlessFunction): ServerlessFunction {
  if (!fn.environment) return fn;
  const { environment, ...rest } = fn;
  const kept = Object.fromEntries(Object.entries(environment).filter(([, value]) => typeof value === "string"));
  return Object.keys(kept).length > 0 ? { ...rest, environment: kept } : rest;
}
