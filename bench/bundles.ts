import { statSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { CATCH_ALL, ROUTES } from "../lib/http/routes";

export const ROOT = join(__dirname, "..");
export const OUT = join(ROOT, ".bench", "bundles");

/** Where the bundles of a store's deployment go. */
export const bundleDir = (store: "memory" | "dynamodb"): string => join(OUT, store);

export interface FunctionSpec {
  name: string;
  handler: string; // e.g. handlers/tasks/create
  method?: string;
  path?: string;
}

/** Every function the route registry declares (serverless.yml's functions), with its route. */
export function functionsOf(): FunctionSpec[] {
  return [
    ...ROUTES.map((route) => ({ name: route.function, handler: route.handler, method: route.method, path: route.path })),
    { name: CATCH_ALL.function, handler: CATCH_ALL.handler },
  ];
}

/**
 * Bundles each handler as serverless-esbuild does for a deployment on `store` (serverless.yml
 * custom.esbuild): bundled, minified, CommonJS, Node 20 target, AWS SDK v3 external (the Lambda
 * runtime has it), only that store's adapters. The bare baseline is bundled the same way.
 */
export async function buildBundles(store: "memory" | "dynamodb" = "memory"): Promise<Record<string, { file: string; bytes: number }>> {
  const outdir = bundleDir(store);
  const entries: Record<string, string> = {
    baseline: join(ROOT, "bench", "baseline.ts"),
    middyBaseline: join(ROOT, "bench", "middyBaseline.ts"),
  };
  for (const fn of functionsOf()) entries[fn.name] = join(ROOT, `${fn.handler}.ts`);
  await build({
    entryPoints: entries,
    outdir,
    bundle: true,
    define: { "process.env.BUNDLED_STORE": JSON.stringify(store) },
    plugins: require("../deploy/esbuildPlugins.js"),
    minify: process.env.BENCH_MINIFY !== "0",
    platform: "node",
    target: "node20",
    format: "cjs",
    external: ["@aws-sdk/*"],
    logLevel: "error",
  });
  const out: Record<string, { file: string; bytes: number }> = {};
  for (const name of Object.keys(entries)) {
    const file = join(outdir, `${name}.js`);
    out[name] = { file, bytes: statSync(file).size };
  }
  return out;
}
