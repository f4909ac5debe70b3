// The operator console's browser bundle (console/): built with esbuild when the console's
// functions are bundled, and served by them as text (see deploy/esbuildPlugins.js). Nothing of it
// loads from elsewhere: Preact and dagre are in the bundle.
const { join } = require("node:path");
const esbuild = require("esbuild");

const options = {
  entryPoints: [join(__dirname, "../console/main.tsx")],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020", "chrome100", "firefox100", "safari15"],
  jsx: "automatic",
  jsxImportSource: "preact",
  legalComments: "none",
  define: { "process.env.NODE_ENV": '"production"' },
  // Not written: outdir only names the outputs (app.js and the imported CSS as app.css).
  write: false,
  outdir: "console-out",
  entryNames: "app",
  logLevel: "silent",
};

/** { js, css } from esbuild's outputs. */
function assets(result) {
  const text = (extension) => result.outputFiles.find((file) => file.path.endsWith(extension))?.text ?? "";
  return { js: text(".js"), css: text(".css") };
}

module.exports = {
  buildConsole: async () => assets(await esbuild.build(options)),
  buildConsoleSync: () => assets(esbuild.buildSync(options)),
};
