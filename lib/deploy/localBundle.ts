import { posix } from "node:path";
import type { ServerlessFunction } from "../http/routes/serverlessFunctions";

/*
 * The local stage's one bundle (issue 36): `serverless offline --stage local` builds a single entry
 * that exports every function's handler under the function's name, instead of one bundle per
 * function. Built once (half a second, not 127 builds), it is loaded once by the in-process server
 * (one module graph, about 75 MB, instead of one copy of the shared code per function) and once per
 * worker in worker-thread mode (each worker still a container of its own). A deployment packages
 * one bundle per function as before: each function carries only its own code.
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

/** The entry's text: one re-export per function, the function's name as the export's. */
export function localEntry(functions: Record<string, ServerlessFunction>, entryPath: string): string {
  const from = posix.dirname(entryPath);
  const lines = Object.entries(functions).map(([name, fn]) => {
    if (!IDENTIFIER.test(name)) throw new Error(`function name "${name}" cannot name an export of the local bundle`);
    const { module, name: exported } = moduleOf(fn.handler);
    const relative = posix.relative(from, module);
    return `export { ${exported} as ${name} } from "${relative.startsWith(".") ? relative : `./${relative}`}";`;
  });
  return ["// Written by deploy/functions.js for `serverless offline --stage local` (lib/deploy/localBundle.ts).", ...lines, ""].join("\n");
}

/** The same functions, each handler now its own export of the one entry. */
export function onLocalBundle(functions: Record<string, ServerlessFunction>, entryPath: string): Record<string, ServerlessFunction> {
  const entryModule = entryPath.replace(/\.ts$/, "");
  return Object.fromEntries(Object.entries(functions).map(([name, fn]) => [name, { ...fn, handler: `${entryModule}.${name}` }]));
}
