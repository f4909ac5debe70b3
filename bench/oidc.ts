/**
 * What signing in with an identity provider costs a function (issue 55): `npm run bench:oidc`.
 * Against the tests' real provider (tests/support/oidcProvider.mjs, on this machine), in one run:
 * - the baseline, an API token's check (SHA-256 and a memory store's read), and a Basic user's
 *   (a plain password, and an scrypt hash as `npm run hash-password` makes);
 * - a provider's JWT: the first check in a container (discovery and the key set fetched), then
 *   warm checks (the key set cached);
 * - what `jose` and `openid-client` add to a bundle (esbuild, minified, as a deployed function's).
 * Prints a Markdown table; bench/analysis.md quotes it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { build } from "esbuild";
import { authenticateToken, issueToken } from "../lib/auth/apiTokens";
import { providerKeys, readOidcSettings, verifyJwt } from "../lib/auth/oidc";
import { parseUsers } from "../lib/auth/users";
import { MemoryApiTokenStore } from "../lib/store/memory/apiTokenStore";
import { startOidcProvider } from "../tests/support/oidc";

const ROUNDS = 2000;

async function perCall(rounds: number, work: () => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < 50; i += 1) await work();
  const started = performance.now();
  for (let i = 0; i < rounds; i += 1) await work();
  return ((performance.now() - started) / rounds) * 1000;
}

/** A module's minified bundle: its bytes, and how long a fresh Node process takes to load it (a cold start's share). */
async function bundled(entry: string): Promise<{ bytes: number; loadMs: number }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    write: false,
  });
  const file = join(mkdtempSync(join(tmpdir(), "bench-oidc-")), "bundle.js");
  writeFileSync(file, result.outputFiles[0].contents);
  const script = `const t = process.hrtime.bigint(); require(${JSON.stringify(file)}); console.log(Number(process.hrtime.bigint() - t) / 1e6)`;
  const loads = Array.from({ length: 5 }, () => Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })));
  return { bytes: result.outputFiles[0].contents.byteLength, loadMs: loads.sort((a, b) => a - b)[2] };
}

async function main(): Promise<void> {
  const provider = await startOidcProvider();
  try {
    const oidc = readOidcSettings({ OIDC_ISSUER: provider.issuer, OIDC_AUDIENCE: provider.api })!;
    const token = await provider.clientToken("automation");
    const now = () => new Date();

    const coldStarted = performance.now();
    const keys = await providerKeys(oidc);
    const claims = await verifyJwt(oidc, keys, token, now());
    const cold = performance.now() - coldStarted;
    if (!claims) throw new Error("the provider's token did not verify");
    const warmJwt = await perCall(ROUNDS, async () => verifyJwt(oidc, await providerKeys(oidc), token, now()));

    const store = new MemoryApiTokenStore();
    const caller = { name: "bench", grants: [{ role: "admin" as const, sites: "*" as const }] };
    const made = await issueToken(store, caller, { name: "bench", role: "viewer", expiresInDays: 1 }, now());
    const apiToken = await perCall(ROUNDS, () => authenticateToken(store, made.token, now(), async () => caller.grants));

    const plain = parseUsers("admin:bench-password");
    const basic = await perCall(ROUNDS, () => plain.verify("admin", "bench-password"));
    const { hashPassword } = await import("../lib/auth/passwordHash");
    const line = `admin:${hashPassword("bench-password")}`;
    // A container's first check of a hashed password runs scrypt; it then remembers a digest of the pair.
    const scrypt = await perCall(20, () => parseUsers(line).verify("admin", "bench-password"));
    const hashed = parseUsers(line);
    const remembered = await perCall(ROUNDS, () => hashed.verify("admin", "bench-password"));

    const jose = await bundled("lib/auth/oidc.ts");
    const client = await bundled("lib/auth/consoleSignIn.ts");
    const rows = [
      ["API token (SHA-256, memory store's read): the baseline", `${apiToken.toFixed(1)} µs`],
      ["Basic, a plain password", `${basic.toFixed(1)} µs`],
      ["Basic, an scrypt hash: first in a container", `${(scrypt / 1000).toFixed(1)} ms`],
      ["Basic, an scrypt hash: after (a digest remembered)", `${remembered.toFixed(1)} µs`],
      ["provider's JWT, warm (key set cached)", `${warmJwt.toFixed(1)} µs`],
      ["provider's JWT, first in a container (discovery + key set, provider on this machine)", `${cold.toFixed(1)} ms`],
      [
        "lib/auth/oidc.ts with jose, minified (in every function: the auth middleware is in every stack): size, load (median of 5)",
        `${(jose.bytes / 1024).toFixed(1)} KB, ${jose.loadMs.toFixed(1)} ms`,
      ],
      [
        "lib/auth/consoleSignIn.ts with openid-client, minified (the console's two sign-in functions): size, load",
        `${(client.bytes / 1024).toFixed(1)} KB, ${client.loadMs.toFixed(1)} ms`,
      ],
    ];
    process.stdout.write(`| what | cost |\n| --- | ---: |\n${rows.map(([what, cost]) => `| ${what} | ${cost} |`).join("\n")}\n`);
  } finally {
    provider.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
