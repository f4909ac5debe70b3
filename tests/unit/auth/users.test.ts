import { hashPassword, parseHash, verifyHash } from "../../../lib/auth/passwordHash";
import { parseUsers } from "../../../lib/auth/users";
import { ConfigError } from "../../../lib/errors";

const cheap = { N: 1024, r: 8, p: 1 } as const;

describe("password hashes", () => {
  it("verify the password they were made from and nothing else", () => {
    const hash = parseHash(hashPassword("python", cheap))!;
    expect(verifyHash("python", hash)).toBe(true);
    expect(verifyHash("pythoN", hash)).toBe(false);
    expect(verifyHash("", hash)).toBe(false);
  });

  it("salt every hash differently", () => {
    expect(hashPassword("same", cheap)).not.toBe(hashPassword("same", cheap));
  });

  it.each(["scrypt$3$8$1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5", "scrypt$1024$8$1$$", "scrypt$x", "bcrypt$..."])(
    "refuse the malformed hash %p",
    (text) => expect(parseHash(text)).toBeUndefined(),
  );
});

describe("parseUsers", () => {
  it("reads user:password pairs separated by commas", () => {
    const users = parseUsers("miguel:python,ann:pa:ss");
    expect(users.size).toBe(2);
    expect(users.verify("miguel", "python")).toBe(true);
    expect(users.verify("ann", "pa:ss")).toBe(true);
    expect(users.verify("miguel", "wrong")).toBe(false);
    expect(users.verify("nobody", "python")).toBe(false);
  });

  it("reads a JSON object, for passwords with commas", () => {
    const users = parseUsers('{"miguel":"a,b"}');
    expect(users.verify("miguel", "a,b")).toBe(true);
  });

  it("accepts scrypt hashes in place of passwords", () => {
    const users = parseUsers(`miguel:${hashPassword("python", cheap)}`);
    expect(users.verify("miguel", "python")).toBe(true);
    expect(users.verify("miguel", "python")).toBe(true); // remembered
    expect(users.verify("miguel", "other")).toBe(false);
  });

  it("is empty when nothing is configured", () => {
    expect(parseUsers("").size).toBe(0);
    expect(parseUsers("   ").size).toBe(0);
  });

  it.each(["nocolon", ":pw", "u:", '{"u":1}', "{broken", "[1]", "u:scrypt$bad"])("refuses %p with a ConfigError", (raw) => {
    expect(() => parseUsers(raw)).toThrow(ConfigError);
  });
});
