import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { randomSalt, sha512Crypt } from "../../../lib/provisioning/sha512crypt";

describe("sha512Crypt", () => {
  it("matches the specification's test vectors", () => {
    expect(sha512Crypt("Hello world!", "saltstring")).toBe(
      "$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1",
    );
    expect(sha512Crypt("Hello world!", "saltstringsaltstring", 10000)).toBe(
      "$6$rounds=10000$saltstringsaltst$OW1/O6BYHV6BcXZu8QVeXbDWra3Oeqh0sbHbbMCVNSnCM/UrjmM0Dp8vOuZeHBy/YTBmSK6H9qs/y3RnOaw5v.",
    );
  });

  it("agrees with openssl passwd -6 for any password and salt", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 80, unit: "grapheme-ascii" }).filter((p) => !p.includes("\n")),
        (password) => {
          const salt = randomSalt();
          const expected = execFileSync("openssl", ["passwd", "-6", "-salt", salt, "-stdin"], { input: `${password}\n` })
            .toString()
            .trim();
          expect(sha512Crypt(password, salt)).toBe(expected);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("salts each hash differently by default", () => {
    expect(sha512Crypt("root")).not.toBe(sha512Crypt("root"));
    expect(sha512Crypt("root")).toMatch(/^\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/);
  });
});
