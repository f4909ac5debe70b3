// Jest's stand-in for `console-assets/names`: the names of the files consoleAssets.js holds.
const { script, style } = require("./consoleBuilt.js");
module.exports = { script, style };
