import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

/** Issue 35 §8: the local stage's hook signing key is random per machine, kept owner-only, never a constant of the repository. */
describe("the local stage's secrets", () => {
  const root = join(__dirname, "../../..");
  it("makes a random key once, keeps it owner-only, and answers the same one after", () => {
    const { localSecret } = require("../../../deploy/localSecrets") as { localSecret: (name: string) => string };
    const name = `test-secret-${process.pid}`;
    const file = join(root, ".local-secrets", name);
    try {
      const first = localSecret(name);
      expect(first).toMatch(/^[\w-]{43}$/);
      expect(localSecret(name)).toBe(first);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(localSecret(`${name}-other`)).not.toBe(first);
    } finally {
      rmSync(file, { force: true });
      rmSync(`${file}-other`, { force: true });
    }
  });

  it("is what serverless.yml gives the local stage: no key is written in the repository", () => {
    const config = readFileSync(join(root, "serverless.yml"), "utf8");
    expect(config).toMatch(/hookSigningKeyDefault: \$\{file\(\.\/deploy\/localSecrets\.js\):hookSigningKey\}/);
    expect(readFileSync(join(root, ".gitignore"), "utf8")).toMatch(/^\.local-secrets\/$/m);
  });
});
