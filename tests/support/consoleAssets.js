// Jest's stand-in for deploy/esbuildPlugins.js: the console's browser bundle, built the same way.
module.exports = require("../../deploy/consoleBuild.js").buildConsoleSync();
