// The local stage's secrets (issue 35 §8): random, made on this machine the first time the local
// stage starts, and kept in `.local-secrets/` (owner-only, ignored by git) so that hooks keep their
// secrets across restarts of `npm start`. Never a constant in the repository: a secret anyone can
// read in the source would let anyone forge a delivery to a receiver that trusts it. A deployed
// stage never reads this file: its key comes from the deploying shell (HOOK_SIGNING_KEY, docs/events.md).
const { randomBytes } = require("node:crypto");
const { mkdirSync, readFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");

const FOLDER = join(__dirname, "..", ".local-secrets");

/** The secret kept under `name`, made (32 random bytes) the first time it is asked for. */
function localSecret(name) {
  const file = join(FOLDER, name);
  mkdirSync(FOLDER, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Made before (or by a server starting at the same moment): the one kept is the key.
    if (error.code !== "EEXIST") throw error;
  }
  return readFileSync(file, "utf8").trim();
}

module.exports = { localSecret, hookSigningKey: () => localSecret("hook-signing-key") };
