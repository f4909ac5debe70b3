import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The hexagon, enforced: arrows go handlers → lib/http → domain ← lib/store. The domain
 * (lib/tasks, lib/provisioning) imports only itself, the shared domain errors and JSON helpers,
 * and Node built-ins; no Lambda types, middy, AWS SDK, HTTP layer, store adapter or settings.
 */
const ROOT = join(__dirname, "../../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/** Every module a file imports or requires: relative ones as repository paths, packages as named. */
function importsOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), "utf8");
  const specifiers = [...source.matchAll(/(?:from\s+|import\s+|require\(|import\()\s*"([^"]+)"/g)].map((match) => match[1]);
  return specifiers.map((spec) => (spec.startsWith(".") ? relative(ROOT, resolve(ROOT, dirname(file), spec)) : spec));
}

/** The import graph of the modules under `dirs`: each module (path without .ts) to the modules it imports there. */
function importGraph(dirs: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap(sourceFiles)) {
    const targets = importsOf(file)
      .filter((target) => !target.startsWith("node:") && /^(lib|handlers|microkernel|scripts|relay|console)\//.test(target))
      .map((target) => (existsSync(join(ROOT, target, "index.ts")) ? `${target}/index` : target));
    graph.set(file.replace(/\.tsx?$/, ""), targets);
  }
  return graph;
}

/** The import circles of a graph: its strongly connected components of more than one module (Tarjan). */
function importCircles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (module: string): void => {
    index.set(module, index.size);
    low.set(module, index.get(module)!);
    stack.push(module);
    onStack.add(module);
    for (const target of graph.get(module) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(module, Math.min(low.get(module)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(module, Math.min(low.get(module)!, index.get(target)!));
    }
    if (low.get(module) !== index.get(module)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return circles;
}

const DOMAIN = ["lib/tasks", "lib/provisioning"];

/**
 * The folders of lib/provisioning that import each other both ways (issue 51: "the domain is one
 * knot"), type-only imports included: the pairs there are today, each a knot to untie. The list
 * only shrinks: a new pair fails, and so does a pair that is gone and still listed. Counted by
 * folder (a module's first segment under lib/provisioning; its root modules, the leaf utilities,
 * are no folder). 29 pairs at the audit, 13 at the start of issue 51, none now:
 * - boot ⇄ cloudInit went with scriptValues.ts (the script quoting) out of boot/;
 * - the OBM service library (services, settings, the action rule; no store) is obmServices/, below
 *   nodes, relays and workflows, and obm/ keeps the node's OBM use cases (−3);
 * - a node's deletion, which cascades to pollers and workflows, is lifecycle/'s (−2);
 * - events/ declares what a hook's change event reads of it (−1);
 * - leaf utilities (bootToken, installDisk, sha512crypt, the user-data limit) out of boot/ and
 *   cloudInit/, a graph's option merging and entry resolution into graphs/ (−3);
 * - the workflow engine (workflowEngine/: graph, task states, time-outs; no store, no clock) apart
 *   from the orchestration that stores it (workflows/), which is given its service task kinds
 *   (discovery's effects, the relay's BMC actions) where the stores are composed (−2);
 * - a relay job's result, which becomes a workflow task's end or a poller's sample, is
 *   relayResults/'s, above relays/ and pollers/ (pollers ⇄ relays, −1);
 * - the library's template language (textTemplate.ts) and `oneLine` (into scriptValues.ts) are leaf
 *   utilities, and what a put entry renders to for a booting node is boot/'s (putEntry.ts):
 *   library/ lists boot/'s built-ins and boot/ no longer imports library/ (boot ⇄ library, −1).
 * None is left.
 */
const FOLDER_PAIRS_LEFT: string[] = [];

/** The folder pairs of a graph's lib/provisioning modules that import each other both ways, as "a ⇄ b" (a before b). */
function folderPairs(graph: Map<string, string[]>): string[] {
  const folderOf = (module: string): string | undefined => {
    const parts = module.split("/");
    return parts[0] === "lib" && parts[1] === "provisioning" && parts.length > 3 ? parts[2] : undefined;
  };
  const edges = new Set<string>();
  for (const [module, targets] of graph) {
    const from = folderOf(module);
    for (const target of targets) {
      const to = folderOf(target);
      if (from && to && from !== to) edges.add(`${from} ${to}`);
    }
  }
  return [...edges]
    .map((edge) => edge.split(" "))
    .filter(([from, to]) => from < to && edges.has(`${to} ${from}`))
    .map(([from, to]) => `${from} ⇄ ${to}`)
    .sort();
}
// re2js: RE2's linear-time regular expressions, pure computation (rules/linearRegex.ts).
// Two pure libraries besides Node's own: re2js (linear-time rules) and ipaddr.js (IPv6 text, issue 54).
const DOMAIN_MAY_IMPORT = [
  /^lib\/tasks\//,
  /^lib\/provisioning\//,
  /^lib\/wire\//,
  /^lib\/errors$/,
  /^lib\/json$/,
  /^node:/,
  /^re2js$/,
  /^ipaddr\.js$/,
];

function violations(dirs: string[], allowed: (target: string, file: string) => boolean): string[] {
  return dirs.flatMap((dir) =>
    sourceFiles(dir).flatMap((file) =>
      importsOf(file)
        .filter((target) => !allowed(target, file))
        .map((target) => `${file} imports ${target}`),
    ),
  );
}

describe("architecture boundaries", () => {
  it("finds the imports it checks (the scan itself works)", () => {
    expect(importsOf("lib/store/compositionRoot.ts")).toEqual(
      expect.arrayContaining(["lib/config/settings", "lib/store/memory/taskStore"]),
    );
    expect(sourceFiles("lib/provisioning").length).toBeGreaterThan(20);
  });

  it("keeps the domain free of adapters, Lambda, middy, the AWS SDK and settings", () => {
    expect(violations(DOMAIN, (target) => DOMAIN_MAY_IMPORT.some((rule) => rule.test(target)))).toEqual([]);
  });

  it("keeps the relay's wire a leaf, and the relay's only door into lib/ (issue 51: it imported the domain's job types and poll arguments)", () => {
    expect(violations(["lib/wire"], (target) => target.startsWith("lib/wire/"))).toEqual([]);
    expect(violations(["relay"], (target) => !target.startsWith("lib/") || target.startsWith("lib/wire/"))).toEqual([]);
  });

  it("ties no new knot between the domain's folders, and the list of those left only shrinks (issue 51)", () => {
    const pairs = folderPairs(importGraph(["lib/provisioning"]));
    // A new pair: untie it (a leaf utility out of the folder, a type where both sides can import it).
    expect(pairs.filter((pair) => !FOLDER_PAIRS_LEFT.includes(pair))).toEqual([]);
    // A pair untied: take it off FOLDER_PAIRS_LEFT.
    expect(FOLDER_PAIRS_LEFT.filter((pair) => !pairs.includes(pair))).toEqual([]);
  });

  it("has each domain function take only the stores it uses (StoresOf<…>), not the whole set (issue 51)", () => {
    // A function that wraps every store (siteScope.ts: a site's view of them all) is the one that may.
    const WHOLE = ["lib/provisioning/relays/siteScope.ts"];
    const files = sourceFiles("lib/provisioning").filter((file) => !file.endsWith("/ports.ts"));
    const whole = files.filter((file) => /\w+: ProvisioningStores\b/.test(readFileSync(join(ROOT, file), "utf8")));
    expect(whole).toEqual(WHOLE);
  });

  it("finds a knot between two folders as one pair", () => {
    const graph = new Map([
      ["lib/provisioning/a/x", ["lib/provisioning/b/y", "lib/provisioning/ids"]],
      ["lib/provisioning/b/y", ["lib/provisioning/a/z"]],
      ["lib/provisioning/ids", ["lib/provisioning/a/x"]],
    ]);
    expect(folderPairs(graph)).toEqual(["a ⇄ b"]);
  });

  it("keeps the HTTP adapter and the store adapters apart", () => {
    expect(violations(["lib/http"], (target) => !target.startsWith("lib/store/"))).toEqual([]);
    expect(violations(["lib/store"], (target) => !target.startsWith("lib/http/") && !target.startsWith("@middy/"))).toEqual([]);
  });

  it("keeps adapters out of lib's root: no module there imports Lambda's types, middy or the AWS SDK (issue 36)", () => {
    const rootModules = readdirSync(join(ROOT, "lib")).filter((name) => name.endsWith(".ts"));
    const adapters = rootModules.filter((name) =>
      importsOf(join("lib", name)).some((target) => /^(aws-lambda|@middy\/|@aws-sdk\/)/.test(target)),
    );
    expect(rootModules.length).toBeGreaterThan(5);
    expect(adapters).toEqual([]);
  });

  it("lets handlers reach stores only through the composition root", () => {
    const allowed = (target: string) => !target.startsWith("lib/store/") || target === "lib/store/compositionRoot";
    expect(violations(["handlers"], allowed)).toEqual([]);
  });

  it("gives every boot route's handler the stores of its request's site (issue 35 §1), never the whole store", () => {
    const bootHandlers = sourceFiles("handlers").filter((file) => readFileSync(join(ROOT, file), "utf8").includes("bootGate"));
    expect(bootHandlers.length).toBeGreaterThanOrEqual(14);
    for (const file of bootHandlers) {
      const source = readFileSync(join(ROOT, file), "utf8");
      expect({ file, scoped: source.includes("bootStores(relayOf(event))"), whole: source.includes("provisioningStores(") }).toEqual({
        file,
        scoped: true,
        whole: false,
      });
    }
  });

  it("knows errors by their brand, never by instanceof of a class another bundle may hold", () => {
    // esbuild gives each function its own copy of every module, and under `npm start` one store
    // (made by whichever bundle came first) serves them all: `instanceof` of its errors is false.
    const BUILT_IN = new Set(["Error", "TypeError", "RangeError", "SyntaxError"]);
    const found = ["lib", "handlers"].flatMap((dir) =>
      sourceFiles(dir).flatMap((file) => {
        // The code, not its comments (which may say why instanceof is not used).
        const source = readFileSync(join(ROOT, file), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
        const tests = [...source.matchAll(/instanceof\s+([A-Z]\w*)/g)].map((m) => m[1]).filter((name) => !BUILT_IN.has(name));
        // Every error a port may throw is a DomainError, whose brand the error mapping reads.
        const unbranded = [...source.matchAll(/class\s+(\w+)\s+extends\s+(\w*Error)\b/g)]
          .filter((m) => m[2] !== "DomainError" && !(file === "lib/errors.ts" && ["DomainError", "ConfigError"].includes(m[1])))
          .filter((m) => BUILT_IN.has(m[2]))
          .map((m) => `class ${m[1]}`);
        return [...tests.map((name) => `instanceof ${name}`), ...unbranded].map((what) => `${file}: ${what}`);
      }),
    );
    expect(found).toEqual([]);
  });

  it("finds an import circle where there is one (the check itself works)", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", []],
    ]);
    expect(importCircles(graph)).toEqual([["a", "b", "c"]]);
    expect(
      importCircles(
        new Map([
          ["a", ["b"]],
          ["b", []],
        ]),
      ),
    ).toEqual([]);
    expect(importGraph(["lib"]).get("lib/store/compositionRoot")).toEqual(expect.arrayContaining(["lib/config/settings"]));
  });

  it("has no import circles, type-only imports included (a circle is a module that cannot be read on its own)", () => {
    expect(importCircles(importGraph(["lib", "handlers", "microkernel", "scripts", "relay", "console"]))).toEqual([]);
  });
});
