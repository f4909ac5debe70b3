// Jest's stand-in for deploy/esbuildPlugins.js: Redoc's standalone bundle as text.
module.exports = require("node:fs").readFileSync(require.resolve("redoc/bundles/redoc.standalone.js"), "utf8");
