import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** deploy/bundler.js: serverless.yml's bundler plugin (serverless-esbuild, or the local stage's one entry built directly). */
const bundler = require("../../../deploy/bundler") as {
  (serverless: unknown, options: unknown, logging?: unknown): { constructor: { name: string }; hooks: Record<string, () => unknown> };
  runsLocalEntry: (commands: string[] | undefined, options: { stage?: string } | undefined) => boolean;
  localEntry: (functions: Record<string, { handler: string }>) => string;
  esbuildOptions: (settings: Record<string, unknown>, serviceDir: string, entry: string, serverless?: unknown) => Record<string, any>;
  LocalEntryBuild: new (
    serverless: unknown,
    options: unknown,
  ) => { build: () => Promise<void>; context?: { dispose: () => Promise<void> } };
};

const root = join(__dirname, "../../..");

describe("the bundler plugin: which build a command gets", () => {
  it("builds the one entry itself for serverless offline on the local stage only", () => {
    expect(bundler.runsLocalEntry(["offline"], { stage: "local" })).toBe(true);
    expect(bundler.runsLocalEntry(["offline"], {})).toBe(false); // the stage is dev: a bundle per function
    expect(bundler.runsLocalEntry(["offline"], { stage: "prod" })).toBe(false);
    expect(bundler.runsLocalEntry(["package"], { stage: "local" })).toBe(false);
    expect(bundler.runsLocalEntry(["print"], { stage: "local" })).toBe(false);
    expect(bundler.runsLocalEntry(undefined, { stage: "local" })).toBe(false);
  });

  it("is the local build for serverless offline --stage local, and serverless-esbuild (loaded then) otherwise", () => {
    const serverless = { processedInput: { commands: ["offline"] }, service: { custom: {} } };
    const local = bundler(serverless, { stage: "local" });
    expect(local.constructor.name).toBe("LocalEntryBuild");
    expect(Object.keys(local.hooks)).toEqual(expect.arrayContaining(["before:offline:start", "before:offline:start:init"]));
    const defined: unknown[] = [];
    const packaging = {
      processedInput: { commands: ["package"] },
      config: { serviceDir: root },
      configSchemaHandler: { defineFunctionProperties: (_provider: string, schema: unknown) => defined.push(schema) },
      service: { provider: { name: "aws", runtime: "nodejs22.x" }, custom: {}, functions: {} },
    };
    const log = { verbose: () => undefined, warning: () => undefined };
    const esbuild = bundler(packaging, { stage: "local" }, { log });
    expect(esbuild.constructor.name).toBe("EsbuildServerlessPlugin");
    expect(Object.keys(esbuild.hooks)).toEqual(expect.arrayContaining(["before:package:createDeploymentArtifacts"]));
    expect(defined).toEqual([{ properties: { skipEsbuild: { type: "boolean" } } }]);
  });

  it("is serverless.yml's bundler, listed where serverless-esbuild was: before serverless-offline", () => {
    const plugins = readFileSync(join(root, "serverless.yml"), "utf8")
      .split(/^plugins:\n/m)[1]
      .split(/^\S/m)[0]
      .split("\n")
      .map((line) => line.match(/^ {2}- (\S+)/)?.[1])
      .filter(Boolean);
    expect(plugins.slice(0, 2)).toEqual(["./deploy/bundler.js", "serverless-offline"]);
    expect(plugins).not.toContain("serverless-esbuild");
  });

  it("finds the one module every handler is an export of, and refuses functions that name several", () => {
    expect(bundler.localEntry({ a: { handler: ".local-bundle/memory.listTasks" }, b: { handler: ".local-bundle/memory.getTask" } })).toBe(
      ".local-bundle/memory.ts",
    );
    expect(() =>
      bundler.localEntry({ a: { handler: "handlers/tasks/list.handler" }, b: { handler: "handlers/tasks/get.handler" } }),
    ).toThrow(/one entry; these name 2 modules/);
  });
});

describe("the bundler plugin: esbuild's options from custom.esbuild, as serverless-esbuild maps them", () => {
  it("drops serverless-esbuild's own settings, adds what the runtime provides to external, and writes under the work folder", () => {
    const options = bundler.esbuildOptions(
      {
        minify: false,
        sourcemap: true,
        target: "node22",
        format: "cjs",
        concurrency: 4,
        skipRebuild: false,
        watch: { pattern: ["lib/**/*.ts"] },
        outputWorkFolder: ".esbuild-test",
        exclude: ["@aws-sdk/*"],
        define: { "process.env.BUNDLED_STORE": '"memory"' },
      },
      "/srv/app",
      ".local-bundle/memory.ts",
    );
    expect(options).toEqual({
      bundle: true,
      platform: "node",
      minify: false,
      sourcemap: true,
      target: "node22",
      format: "cjs",
      define: { "process.env.BUNDLED_STORE": '"memory"' },
      external: ["@aws-sdk/*"],
      plugins: [],
      absWorkingDir: "/srv/app",
      entryPoints: [".local-bundle/memory.ts"],
      outdir: "/srv/app/.esbuild-test/.build/.local-bundle",
    });
  });

  it("keeps serverless-esbuild's defaults: aws-sdk excluded, the .esbuild folder; an exclude of * bundles everything", () => {
    const defaults = bundler.esbuildOptions({ external: ["pg-native"] }, "/srv/app", "entry.ts");
    expect(defaults.external).toEqual(["pg-native", "aws-sdk"]);
    expect(defaults.outdir).toBe("/srv/app/.esbuild/.build");
    expect(bundler.esbuildOptions({ exclude: ["*"] }, "/srv/app", "entry.ts").external).toEqual([]);
  });

  it("loads the plugins module serverless.yml names (an array, or a function of the Serverless instance)", () => {
    const names = bundler
      .esbuildOptions({ plugins: "./deploy/esbuildPlugins.js" }, root, "e.ts")
      .plugins.map((p: { name: string }) => p.name);
    expect(names).toEqual(["redoc-as-text", "console-assets"]);
    const dir = mkdtempSync(join(tmpdir(), "bundler-plugins-"));
    try {
      writeFileSync(join(dir, "plugins.js"), "module.exports = (serverless) => [{ name: serverless.name, setup() {} }];");
      expect(bundler.esbuildOptions({ plugins: "plugins.js" }, dir, "e.ts", { name: "from-serverless" }).plugins[0].name).toBe(
        "from-serverless",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the console's assets in a watching build", () => {
  it("name every file the console was built from, so that changing one rebuilds the functions' bundle", async () => {
    const plugins = require("../../../deploy/esbuildPlugins") as { name: string; setup: (build: unknown) => void }[];
    const loads: ((args: { path: string }) => Promise<{ watchFiles: string[]; contents: string }>)[] = [];
    plugins
      .find((plugin) => plugin.name === "console-assets")!
      .setup({ onResolve: () => undefined, onLoad: (_filter: unknown, load: (typeof loads)[number]) => loads.push(load) });
    const loaded = await loads[0]({ path: "console-assets/names" });
    expect(loaded.watchFiles).toEqual(expect.arrayContaining([join(root, "console/main.tsx"), join(root, "console/styles.css")]));
    expect(Object.keys(JSON.parse(loaded.contents))).toEqual(["script", "style"]);
  });
});

describe("the bundler plugin: the local stage's build for serverless offline", () => {
  let dir: string;
  let build: InstanceType<typeof bundler.LocalEntryBuild> | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "bundler-local-"));
  });
  afterEach(async () => {
    await build?.context?.dispose();
    build = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const serverlessAt = (spawned: string[]) => ({
    serviceDir: dir,
    processedInput: { commands: ["offline"] },
    pluginManager: { spawn: (event: string) => spawned.push(event) },
    service: {
      custom: {
        esbuild: { outputWorkFolder: ".esbuild-x", format: "cjs", exclude: ["@aws-sdk/*"], define: { "process.env.WHO": '"local"' } },
      },
      functions: { one: { handler: "entry.one" }, two: { handler: "entry.two" } },
    },
  });

  it("builds the entry once, points serverless offline at it, and tells it when a source changes", async () => {
    writeFileSync(join(dir, "entry.ts"), 'export const one = () => process.env.WHO;\nexport { two } from "./two";\n');
    writeFileSync(join(dir, "two.ts"), "export const two = (): number => 2;\n");
    const spawned: string[] = [];
    const serverless = serverlessAt(spawned);
    build = new bundler.LocalEntryBuild(serverless, { stage: "local" });
    await Promise.all([build.build(), build.build()]); // both offline hooks: one build
    const bundle = join(dir, ".esbuild-x/.build/entry.js");
    const loaded = require(bundle);
    expect([loaded.one(), loaded.two()]).toEqual(["local", 2]);
    expect((serverless.service.custom as Record<string, any>)["serverless-offline"]).toEqual({ location: ".esbuild-x/.build" });
    expect(spawned).toEqual([]);

    writeFileSync(join(dir, "two.ts"), "export const two = (): number => 22;\n");
    for (const until = Date.now() + 10_000; spawned.length === 0 && Date.now() < until; )
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(spawned).toEqual(["offline:functionsUpdated"]);
    expect(readFileSync(bundle, "utf8")).toContain("22");
  });

  it("builds once and keeps no context when custom.esbuild says skipRebuild, as serverless-esbuild does", async () => {
    writeFileSync(join(dir, "entry.ts"), "export const one = () => 1;\nexport const two = () => 2;\n");
    const spawned: string[] = [];
    const serverless = serverlessAt(spawned);
    (serverless.service.custom.esbuild as Record<string, unknown>).skipRebuild = true;
    build = new bundler.LocalEntryBuild(serverless, { stage: "local" });
    await build.build();
    const bundle = join(dir, ".esbuild-x/.build/entry.js");
    expect(require(bundle).two()).toBe(2);
    writeFileSync(join(dir, "entry.ts"), "export const one = () => 1;\nexport const two = () => 22;\n");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(readFileSync(bundle, "utf8")).not.toContain("22");
    expect(spawned).toEqual([]);
  });

  it("stops serverless offline with esbuild's errors when the entry does not build, and keeps a location already set", async () => {
    writeFileSync(join(dir, "entry.ts"), 'export const one = () => missing();\nimport "./absent";\n');
    const serverless = serverlessAt([]);
    (serverless.service.custom as Record<string, any>)["serverless-offline"] = { location: "elsewhere" };
    build = new bundler.LocalEntryBuild(serverless, { stage: "local" });
    await expect(build.build()).rejects.toThrow(/the local stage's bundle did not build: Could not resolve "\.\/absent"/);
    expect(existsSync(join(dir, ".esbuild-x/.build/entry.js"))).toBe(false);
    expect((serverless.service.custom as Record<string, any>)["serverless-offline"]).toEqual({ location: "elsewhere" });
  });
});
