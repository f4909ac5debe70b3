// esbuild plugins for serverless-esbuild (custom.esbuild.plugins) and the bench's bundles.
// Redoc's standalone bundle is served by the docs routes: it is imported as text, not run.
const { readFile } = require("node:fs/promises");

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

module.exports = [redocAsText];
