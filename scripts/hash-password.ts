/**
 * Makes a password hash for AUTH_USERS.
 *   npm run hash-password -- 'the password'      (or pipe the password on stdin)
 * Prints `scrypt$N$r$p$salt$key`; set AUTH_USERS='user:<that hash>'.
 */
import { hashPassword } from "../lib/auth/passwordHash";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

async function main(): Promise<void> {
  const password = process.argv[2] ?? (process.stdin.isTTY ? undefined : await readStdin());
  if (!password) {
    process.stderr.write("usage: npm run hash-password -- '<password>'   (or: echo '<password>' | npm run hash-password)\n");
    process.exit(2);
  }
  process.stdout.write(`${hashPassword(password)}\n`);
}

void main();
