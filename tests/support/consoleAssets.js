// Jest's stand-in for deploy/esbuildPlugins.js's `console-assets`: the console's browser bundle,
// built the same way (once per test file, shared with consoleAssetNames.js), the files by name.
module.exports = require("./consoleBuilt.js").files;
