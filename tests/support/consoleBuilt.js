// The console's browser bundle as deploy/consoleBuild.js builds it (see consoleAssets.js).
module.exports = require("../../deploy/consoleBuild.js").buildConsoleSync();
