/**
 * Derives the generated sources of the HTTP adapter:
 * - lib/http/schemas/validators.generated.ts: every schema of lib/http/schemas compiled ahead of
 *   time (ajv standalone code), so that no handler bundles ajv or compiles at cold start; one export
 *   per exported schema, of the same name, carrying its schema and typed by it (json-schema-to-ts);
 * - lib/http/routes/routeTable.generated.ts: each registry entry's method and path, for the
 *   catch-all's 404/405 (so its bundle holds no schema);
 * - the route tables of the docs (docs/*.md), between `<!-- routes:<service> -->` and `<!-- /routes -->`;
 * - lib/http/openapi/<service>.generated.json: each service's OpenAPI 3.1 document;
 * - lib/http/routes/handlerFiles.generated.ts: the type naming every handler module (a file under
 *   handlers/ exporting `handler`), which a registry entry's `handler` must be: an entry naming a
 *   file that is not there fails the type check;
 * - lib/auth/decisions.generated.ts: the policy's (lib/auth/policy.cedar) answer for every action,
 *   asked through Cedar, which no function then carries;
 * - lib/wire/bootRoutes.generated.ts: the boot routes (a booting machine's), which a site's relay
 *   forwards (lib/wire/relay.ts): a new boot route is forwarded with no edit in the relay.
 *
 *   npm run generate            write the files
 *   npm run generate -- --check exit 1 when a committed file is not what the sources give
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import Ajv from "ajv";
import standaloneCode from "ajv/dist/standalone";
import * as provisioning from "../lib/http/provisioning/schemas";
import * as tasks from "../lib/http/tasks/schemas";

const VALIDATORS = join(__dirname, "../lib/http/schemas/validators.generated.ts");
const ROUTE_TABLE = join(__dirname, "../lib/http/routes/routeTable.generated.ts");
const BOOT_ROUTES = join(__dirname, "../lib/wire/bootRoutes.generated.ts");
const DECISIONS = join(__dirname, "../lib/auth/decisions.generated.ts");
const HANDLER_FILES = join(__dirname, "../lib/http/routes/handlerFiles.generated.ts");
const ROOT = join(__dirname, "..");
/** The pages that may hold route tables: the README and every page of docs/. */
export const DOC_PAGES = [
  "README.md",
  ...readdirSync(join(__dirname, "../docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const openApiFile = (service: string) => join(__dirname, `../lib/http/openapi/${service}.generated.json`);

const MODULES = { tasks, provisioning } as const;

interface Entry {
  id: string;
  module: keyof typeof MODULES;
  exportName: string;
}

/** Every exported schema (an object), once, named by its export. */
function schemaEntries(): Entry[] {
  const seen = new Set<unknown>();
  const entries: Entry[] = [];
  for (const [module, exports] of Object.entries(MODULES) as [keyof typeof MODULES, Record<string, unknown>][]) {
    for (const [exportName, value] of Object.entries(exports)) {
      if (typeof value !== "object" || value === null || seen.has(value)) continue;
      seen.add(value);
      entries.push({ id: exportName, module, exportName });
    }
  }
  return entries;
}

const pointerSegment = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * The contract's texts of a schema, by JSON pointer: `{"": x-error, <keyword>: x-errors[keyword]}`
 * for each node that has any. The validators carry this map instead of their schema.
 */
export function schemaMessages(
  schema: unknown,
  pointer = "#",
  out: Record<string, Record<string, string>> = {},
): Record<string, Record<string, string>> {
  if (typeof schema !== "object" || schema === null) return out;
  const node = schema as Record<string, unknown>;
  const texts: Record<string, string> = { ...(node["x-errors"] as Record<string, string> | undefined) };
  if (typeof node["x-error"] === "string") texts[""] = node["x-error"];
  if (Object.keys(texts).length > 0) out[pointer] = texts;
  for (const [key, value] of Object.entries(node)) {
    if (key !== "x-errors") schemaMessages(value, `${pointer}/${pointerSegment(key)}`, out);
  }
  return out;
}

export function generateValidators(): string {
  const entries = schemaEntries();
  const schemaOf = ({ module, exportName }: Entry) => (MODULES[module] as unknown as Record<string, object>)[exportName];
  const ajv = new Ajv({
    code: { source: true, esm: true },
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    allErrors: false,
    // The contract's texts come from the schema's x-error; ajv's own are never shown.
    messages: false,
  });
  ajv.addVocabulary(["x-error", "x-errors"]);
  for (const entry of entries) ajv.addSchema(schemaOf(entry), entry.id);
  const raw = standaloneCode(ajv, Object.fromEntries(entries.map(({ id }) => [`validate${id}`, id])));
  const code = raw
    .replace(/^"use strict";/, "")
    // ajv names its exports; keep them module-private and export the typed ones below.
    .replace(/export const (validate\w+) = /g, "const $1 = ")
    // Patterns are compiled once at load: marked pure, so a bundle drops the ones it never uses.
    .replace(/= new RegExp\(/g, "= /* @__PURE__ */ new RegExp(")
    // Enum errors would quote the allowed values from a copy of the whole schema; nothing reads
    // them, and without them the copies are dead code a bundle drops.
    .replace(/params:\{allowedValues?: schema\d+[\w.[\]]*\}/g, "params:{}");
  const lines = [
    "// @ts-nocheck: ajv standalone output (generated by scripts/generate.ts; run `npm run generate`). Do not edit.",
    'import type { FromSchema } from "json-schema-to-ts";',
    'import { compiledSchema } from "../validation";',
    ...Object.keys(MODULES).map((module) => `import type * as ${module} from "../${module}/schemas";`),
    "type Options = { parseIfThenElseKeywords: true };",
    code,
    ...entries.map(
      (entry) =>
        `export const ${entry.id} = /* @__PURE__ */ compiledSchema<FromSchema<typeof ${entry.module}.${entry.exportName}, Options>>(validate${entry.id}, ${JSON.stringify(entry.id)}, ${JSON.stringify(schemaMessages(schemaOf(entry)))});`,
    ),
    "",
  ];
  return lines.join("\n");
}

/** Read after the validators are written: the registry imports them. */
export function generateRouteTable(): string {
  const { ROUTES } = require("../lib/http/routes") as typeof import("../lib/http/routes");
  const rows = ROUTES.map((route) => `  [${JSON.stringify(route.method)}, ${JSON.stringify(route.path)}],`);
  return [
    "// Generated by scripts/generate.ts from the route registry (lib/http/routes); run `npm run generate`. Do not edit.",
    "/** Every route's method and path, in registry order. */",
    "export const ROUTE_TABLE: readonly (readonly [method: string, path: string])[] = [",
    ...rows,
    "];",
    "",
  ].join("\n");
}

/**
 * The policy's answer for every action (lib/auth/policy.cedar, asked through Cedar): what each
 * function looks up, so that none carries the policy engine (read after the validators are written).
 */
export function generateDecisions(): string {
  const { ROUTES } = require("../lib/http/routes") as typeof import("../lib/http/routes");
  const { decisionMask } = require("./policyDecisions") as typeof import("./policyDecisions");
  const policy = readFileSync(join(__dirname, "../lib/auth/policy.cedar"), "utf8");
  const rows = ROUTES.filter((route) => route.auth !== "none" && route.auth !== "boot" && route.auth !== "relay").map(
    (route) => `  ${route.function}: ${JSON.stringify(decisionMask(route, policy))},`,
  );
  return [
    "// Generated by scripts/generate.ts from lib/auth/policy.cedar and the route registry; run `npm run generate`. Do not edit.",
    "/**",
    " * Cedar's answer for each action an operator may be asked about (a registry entry's function):",
    " * per role (viewer, operator, admin), for a grant on every site then for one on named sites",
    " * covering the resource's, `1` where the policy permits it (lib/auth/authorize.ts reads it).",
    " */",
    "export const DECISIONS: Readonly<Record<string, string>> = {",
    ...rows,
    "};",
    "",
  ].join("\n");
}

/** The boot routes' method, path and function, for the relay (read after the validators are written). */
export function generateBootRoutes(): string {
  const { ROUTES } = require("../lib/http/routes") as typeof import("../lib/http/routes");
  const rows = ROUTES.filter((route) => route.auth === "boot").map(
    (route) => `  [${JSON.stringify(route.method)}, ${JSON.stringify(route.path)}, ${JSON.stringify(route.function)}],`,
  );
  return [
    "// Generated by scripts/generate.ts from the route registry (lib/http/routes); run `npm run generate`. Do not edit.",
    "/** The routes a booting machine calls (auth `boot`): what a site's relay forwards (lib/wire/relay.ts). */",
    "export const BOOT_ROUTES: readonly (readonly [method: string, path: string, name: string])[] = [",
    ...rows,
    "];",
    "",
  ].join("\n");
}

const walk = (dir: string): string[] =>
  readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });

/** The handler modules on disk (a file exporting `handler`; a helper two handlers share exports none), from the root, without extension. */
export const handlerFiles = (): string[] =>
  walk(join(ROOT, "handlers"))
    .filter((path) => path.endsWith(".ts") && /^export (const|async function|function) handler\b/m.test(readFileSync(path, "utf8")))
    .map((path) => relative(ROOT, path).replace(/\.ts$/, ""));

/** The type a registry entry's `handler` must be: one of the handler modules on disk. */
export function generateHandlerFiles(): string {
  return [
    "// Generated by scripts/generate.ts from the files under handlers/; run `npm run generate`. Do not edit.",
    "/** Every handler module (exporting `handler`), from the repository root: what a registry entry may name. */",
    "export type HandlerFile =",
    ...handlerFiles().map((file) => `  | ${JSON.stringify(file)}`),
    ";",
    "",
  ]
    .join("\n")
    .replace(/\n;\n$/, ";\n");
}

/** A page with each `<!-- routes:<service> -->` region holding that service's table. */
export function generateReadme(current: string): string {
  const { ROUTES } = require("../lib/http/routes") as typeof import("../lib/http/routes");
  return current.replace(/(<!-- routes:(\w+) -->\n)[\s\S]*?(<!-- \/routes -->)/g, (_, open: string, service: string, close: string) => {
    const rows = ROUTES.filter((route) => route.service === service).map((route) => {
      const success = Object.keys(route.responses)
        .filter((status) => status.startsWith("2"))
        .join(", ");
      const auth = {
        tasksList: "`TASKS_AUTH` list, all",
        tasks: "`TASKS_AUTH` all",
        northbound: "`PROVISIONING_AUTH` on",
        relay: "relay token",
        boot: "never; relay token under `BOOT_VIA_RELAY` on",
        none: "never",
      }[route.auth];
      return `| ${route.method} | \`${route.path}\` | ${success} | ${auth} | ${route.summary.replace(/\|/g, "\\|")} |`;
    });
    return `${open}| method | path | success | auth | what it does |\n|---|---|---|---|---|\n${rows.join("\n")}\n${close}`;
  });
}

/** Read after the validators are written: the registry imports them. */
export function generateOpenApi(service: "tasks" | "provisioning"): string {
  const { ROUTES } = require("../lib/http/routes") as typeof import("../lib/http/routes");
  const { openApiDocument } = require("../lib/http/openapi/document") as typeof import("../lib/http/openapi/document");
  return `${JSON.stringify(openApiDocument(service, ROUTES), null, 2)}\n`;
}

function writeOrCheck(file: string, content: string, check: boolean): boolean {
  if (!check) {
    writeFileSync(file, content);
    return true;
  }
  let current = "";
  try {
    current = readFileSync(file, "utf8");
  } catch {
    // missing: out of date
  }
  if (current === content) return true;
  process.stderr.write(`${file} is out of date: run \`npm run generate\`\n`);
  return false;
}

if (require.main === module) {
  const check = process.argv.includes("--check");
  const validatorsOk = writeOrCheck(VALIDATORS, generateValidators(), check);
  const tableOk = [
    writeOrCheck(HANDLER_FILES, generateHandlerFiles(), check),
    writeOrCheck(ROUTE_TABLE, generateRouteTable(), check),
    writeOrCheck(BOOT_ROUTES, generateBootRoutes(), check),
    writeOrCheck(DECISIONS, generateDecisions(), check),
  ].every(Boolean);
  const readmeOk = DOC_PAGES.map((page) => join(__dirname, "..", page))
    .map((file) => writeOrCheck(file, generateReadme(readFileSync(file, "utf8")), check))
    .every(Boolean);
  const documentsOk = (["tasks", "provisioning"] as const).map((service) =>
    writeOrCheck(openApiFile(service), generateOpenApi(service), check),
  );
  if (!validatorsOk || !tableOk || !readmeOk || documentsOk.includes(false)) process.exit(1);
}
