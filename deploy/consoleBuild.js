// The operator console's browser bundle (console/): built with esbuild when the console's
// functions are bundled, and served by them as text (see deploy/esbuildPlugins.js). Nothing of it
// loads from elsewhere: Preact and dagre are in the bundle.
const { createHash } = require("node:crypto");
const { join } = require("node:path");
const esbuild = require("esbuild");

const ROOT = join(__dirname, "..");

const options = {
  entryPoints: [join(ROOT, "console/main.tsx")],
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
  // The files it was built from: a watching build of the functions rebuilds when one changes.
  metafile: true,
  absWorkingDir: ROOT,
};

/** A name for content that changes when it does: it may then be cached for a year. */
const nameOf = (body, extension) => `app-${createHash("sha256").update(body).digest("hex").slice(0, 12)}${extension}`;

/**
 * The assets from esbuild's outputs, named by their content: `files` by name (what the asset
 * function serves) and the two names (all the page function needs); `inputs`, the files read.
 */
function assets(result) {
  const text = (extension) => result.outputFiles.find((file) => file.path.endsWith(extension))?.text ?? "";
  const [js, css] = [text(".js"), text(".css")];
  const script = nameOf(js, ".js");
  const style = nameOf(css, ".css");
  return {
    script,
    style,
    inputs: Object.keys(result.metafile.inputs).map((input) => join(ROOT, input)),
    files: {
      [script]: { body: js, contentType: "text/javascript; charset=utf-8" },
      [style]: { body: css, contentType: "text/css; charset=utf-8" },
    },
  };
}

module.exports = {
  buildConsole: async () => assets(await esbuild.build(options)),
  buildConsoleSync: () => assets(esbuild.buildSync(options)),
};
