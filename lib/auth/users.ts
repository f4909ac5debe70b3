import { createHash, randomBytes } from "node:crypto";
import { ConfigError } from "../errors";
import { looksLikeHash, parseHash, type ScryptHash, sameSecret, verifyHash } from "./passwordHash";

type Credential = { kind: "plain"; password: string } | { kind: "scrypt"; hash: ScryptHash };

/**
 * The configured users. `verify` takes the same time for a known and an unknown user name
 * (an unknown name is checked against a decoy), and remembers scrypt successes so a warm
 * container pays the deliberate scrypt cost once per user and password, not once per request.
 */
export class UserTable {
  private readonly verified = new Map<string, true>();
  private static readonly MAX_REMEMBERED = 256;

  /**
   * What an unknown user name is checked against: a random scrypt hash of the costliest cost the
   * table holds, so a wrong password costs the same for a name that exists as for one that does
   * not (issue 35 §9); a table of plain passwords only needs none.
   */
  private readonly decoy: ScryptHash | undefined;

  constructor(private readonly users: ReadonlyMap<string, Credential>) {
    const costs = [...users.values()].flatMap((credential) => (credential.kind === "scrypt" ? [credential.hash] : []));
    const costliest = costs.sort((a, b) => b.N * b.r * b.p - a.N * a.r * a.p)[0];
    this.decoy = costliest && { ...costliest, salt: randomBytes(16), key: randomBytes(costliest.key.length) };
  }

  get size(): number {
    return this.users.size;
  }

  /** The users' names, sorted (never a password or a hash). */
  get names(): string[] {
    return [...this.users.keys()].sort();
  }

  /** Whether the user is listed (a token's owner still is). */
  has(user: string): boolean {
    return this.users.has(user);
  }

  verify(user: string, password: string): boolean {
    const credential = this.users.get(user);
    if (credential === undefined) {
      if (this.decoy) verifyHash(password, this.decoy);
      else sameSecret(password, "decoy password for an unknown user");
      return false;
    }
    if (credential.kind === "plain") return sameSecret(password, credential.password);
    // Remember a digest, never the password itself.
    const memo = createHash("sha256").update(`${user}\u0000${password}`).digest("base64");
    if (this.verified.has(memo)) return true;
    const ok = verifyHash(password, credential.hash);
    if (ok) {
      if (this.verified.size >= UserTable.MAX_REMEMBERED) this.verified.clear();
      this.verified.set(memo, true);
    }
    return ok;
  }
}

/**
 * AUTH_USERS: either `user:password,user2:scrypt$...` (split on the first colon of each entry)
 * or a JSON object `{"user":"password or hash"}` for passwords that contain commas.
 */
export function parseUsers(raw: string): UserTable {
  const text = raw.trim();
  const entries: [string, string][] = [];
  if (text.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ConfigError("AUTH_USERS looks like JSON but does not parse");
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new ConfigError("AUTH_USERS as JSON must be an object of user names to passwords");
    }
    for (const [user, password] of Object.entries(parsed)) {
      if (typeof password !== "string") throw new ConfigError(`AUTH_USERS: password of "${user}" must be a string`);
      entries.push([user, password]);
    }
  } else if (text !== "") {
    for (const entry of text.split(",")) {
      const colon = entry.indexOf(":");
      if (colon < 1) throw new ConfigError("AUTH_USERS entries must look like user:password");
      entries.push([entry.slice(0, colon).trim(), entry.slice(colon + 1)]);
    }
  }
  const users = new Map<string, Credential>();
  for (const [user, secret] of entries) {
    if (user === "" || user.includes(":")) throw new ConfigError(`AUTH_USERS: invalid user name "${user}"`);
    if (secret === "") throw new ConfigError(`AUTH_USERS: empty password for "${user}"`);
    if (looksLikeHash(secret)) {
      const hash = parseHash(secret);
      if (!hash) throw new ConfigError(`AUTH_USERS: malformed scrypt hash for "${user}"`);
      users.set(user, { kind: "scrypt", hash });
    } else {
      users.set(user, { kind: "plain", password: secret });
    }
  }
  return new UserTable(users);
}
