// esbuild plugins for serverless-esbuild (custom.esbuild.plugins) and the bench's bundles.
// Redoc's standalone bundle is served by the docs routes: it is imported as text, not run.
// The operator console's browser bundle is built from console/ and imported as text too.
const { readFile } = require("node:fs/promises");
const { buildConsole } = require("./consoleBuild");

const redocAsText = {
  name: "redoc-as-text",
  setup(build) {
    build.onResolve({ filter: /^redoc\/bundles\/redoc\.standalone\.js$/ }, (args) => ({
      path: require.resolve(args.path, { paths: [args.resolveDir] }),
      namespace: "redoc-text",
    }));
    build.onLoad({ filter: /.*/, namespace: "redoc-text" }, async (args) => ({
      contents: await readFile(args.path, "utf8"),
      loader: "text",
    }));
  },
};

// `console-assets`: the files by name (the asset function); `console-assets/names`: only their
// names (the page function, whose bundle then holds no copy of the browser bundle).
const consoleAssets = {
  name: "console-assets",
  setup(build) {
    build.onResolve({ filter: /^console-assets(\/names)?$/ }, (args) => ({ path: args.path, namespace: "console-assets" }));
    build.onLoad({ filter: /.*/, namespace: "console-assets" }, async (args) => {
      const { files, script, style, inputs } = await buildConsole();
      // watchFiles: the local stage's watching build (deploy/bundler.js) rebuilds when the console changes.
      return { contents: JSON.stringify(args.path.endsWith("/names") ? { script, style } : files), loader: "json", watchFiles: inputs };
    });
  },
};

module.exports = [redocAsText, consoleAssets];
