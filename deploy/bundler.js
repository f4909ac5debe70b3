// The functions' bundler (serverless.yml's `plugins`): serverless-esbuild, except for `serverless
// offline --stage local`, whose functions all run one entry (lib/deploy/localBundle.ts). That entry
// is built here, with esbuild's own API and the same `custom.esbuild` settings serverless-esbuild
// reads, and rebuilt by esbuild's watch when one of its sources changes.
//
// Why a local plugin for that one case (issue 36): serverless-esbuild loads all of `effect` and
// its platform packages when it is loaded, some 2,000 modules and 1.35 s of CPU in every
// `serverless offline` start, which a test run makes about 55 times (`npm start` once); its
// file watcher (chokidar, over the source folders) adds more. Building one entry and watching what
// it was built from is esbuild's own job, a few lines. A package or a deploy (a bundle per function,
// zipped, its externals packed) is serverless-esbuild's, unchanged, as is `serverless offline` on
// any other stage. Tested in tests/unit/deploy/bundler.test.ts; every server the e2e, browser and
// boot tiers start runs on what it builds.
const { join, posix, relative } = require("node:path");

/** serverless-esbuild's own settings in `custom.esbuild` (esbuild refuses options it does not know): the list it removes. */
const BUNDLER_SETTINGS = [
  "concurrency",
  "zipConcurrency",
  "exclude",
  "nativeZip",
  "packager",
  "packagePath",
  "watch",
  "keepOutputDirectory",
  "packagerOptions",
  "installExtraArgs",
  "outputFileExtension",
  "outputBuildFolder",
  "outputWorkFolder",
  "nodeExternals",
  "skipBuild",
  "skipRebuild",
  "skipBuildExcludeFns",
  "stripEntryResolveExtensions",
  "disposeContext",
  "config",
];

/** Where serverless-esbuild builds when `custom.esbuild` names no folder: the same here. */
const DEFAULT_WORK_FOLDER = ".esbuild";
const BUILD_FOLDER = ".build";

/** Whether this invocation is `serverless offline` on the local stage (its functions on the one entry). */
function runsLocalEntry(commands, options) {
  return commands?.[0] === "offline" && (options?.stage ?? "dev") === "local";
}

/**
 * The one source file every function's handler is an export of (`.local-bundle/memory.listTasks`:
 * `.local-bundle/memory.ts`). Throws when the functions do not share one: then this is not the
 * local stage's layout, and serverless-esbuild's per-function build is the right one.
 */
function localEntry(functions) {
  const modules = new Set(Object.values(functions).map((fn) => String(fn.handler).slice(0, String(fn.handler).lastIndexOf("."))));
  if (modules.size !== 1) throw new Error(`the local stage's functions run one entry; these name ${modules.size} modules`);
  return `${[...modules][0]}.ts`;
}

/**
 * esbuild's options for the entry, from `custom.esbuild` as serverless-esbuild maps them: its own
 * settings removed, `exclude` (what the Lambda runtime provides) added to `external`, the plugins
 * module loaded, the output beside the entry's path under the work folder's build folder.
 */
function esbuildOptions(settings, serviceDir, entry, serverless) {
  const options = { bundle: true, platform: "node", ...settings };
  for (const name of BUNDLER_SETTINGS) delete options[name];
  const exclude = [settings.exclude ?? ["aws-sdk"]].flat();
  options.external = [...[settings.external ?? []].flat(), ...(exclude.includes("*") ? [] : exclude)];
  let plugins = typeof settings.plugins === "string" ? require(join(serviceDir, settings.plugins)) : (settings.plugins ?? []);
  if (typeof plugins === "function") plugins = plugins(serverless);
  options.plugins = [plugins].flat();
  options.absWorkingDir ??= serviceDir;
  options.entryPoints = [entry];
  options.outdir = join(buildDirectory(settings, serviceDir), posix.dirname(entry));
  return options;
}

/** The folder the bundle is written under, as serverless-esbuild names it (serverless-offline's `location`). */
function buildDirectory(settings, serviceDir) {
  return join(serviceDir, settings.outputWorkFolder ?? DEFAULT_WORK_FOLDER, settings.outputBuildFolder ?? BUILD_FOLDER);
}

/** Builds and watches the local stage's entry for serverless offline. */
class LocalEntryBuild {
  constructor(serverless, _options, logging) {
    this.serverless = serverless;
    this.log = logging?.log;
    this.hooks = {
      "before:offline:start": () => this.build(),
      "before:offline:start:init": () => this.build(),
      "offline:start:end": () => this.context?.dispose(),
    };
  }

  async build() {
    if (this.built) return this.built;
    this.built = (async () => {
      const esbuild = require("esbuild");
      const { service } = this.serverless;
      const serviceDir = this.serverless.serviceDir ?? this.serverless.config.serviceDir;
      const settings = service.custom?.esbuild ?? {};
      const options = esbuildOptions(settings, serviceDir, localEntry(service.functions ?? {}), this.serverless);
      let firstBuild;
      const built = new Promise((resolve) => (firstBuild = resolve));
      const reload = {
        name: "serverless-offline-reload",
        setup: (build) => {
          let builds = 0;
          build.onEnd((result) => {
            builds += 1;
            if (builds === 1) return firstBuild(result);
            // A change: serverless offline loads the handlers again on their next call.
            if (result.errors.length === 0) this.serverless.pluginManager.spawn("offline:functionsUpdated");
          });
        },
      };
      this.context = await esbuild.context({ ...options, plugins: [...options.plugins, reload] });
      // watch() builds at once, then again whenever a file the bundle was built from changes;
      // `skipRebuild` (serverless-esbuild's "keep no context") builds once.
      if (settings.skipRebuild) await this.context.rebuild().catch(() => undefined);
      else await this.context.watch();
      const result = await built;
      if (settings.skipRebuild || result.errors.length > 0) await this.context.dispose();
      if (result.errors.length > 0) {
        throw new Error(`the local stage's bundle did not build: ${result.errors.map((error) => error.text).join("; ")}`);
      }
      service.custom ??= {};
      service.custom["serverless-offline"] ??= {};
      const offline = service.custom["serverless-offline"];
      offline.location ??= relative(serviceDir, buildDirectory(settings, serviceDir));
      this.log?.verbose?.(`built ${options.entryPoints[0]} into ${offline.location}`);
    })();
    return this.built;
  }
}

/**
 * serverless.yml's bundler plugin: this file's build for `serverless offline --stage local`,
 * serverless-esbuild (loaded only then) for everything else.
 */
function Bundler(serverless, options, logging) {
  if (runsLocalEntry(serverless.processedInput?.commands, options)) return new LocalEntryBuild(serverless, options, logging);
  const ServerlessEsbuild = require("serverless-esbuild");
  return new ServerlessEsbuild(serverless, options, logging);
}

module.exports = Bundler;
module.exports.runsLocalEntry = runsLocalEntry;
module.exports.localEntry = localEntry;
module.exports.esbuildOptions = esbuildOptions;
module.exports.buildDirectory = buildDirectory;
module.exports.LocalEntryBuild = LocalEntryBuild;
