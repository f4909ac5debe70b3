import fc from "fast-check";
import { parseBasicAuth } from "../../../lib/auth/basicAuth";

const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("parseBasicAuth", () => {
  it("reads user and password, splitting on the first colon", () => {
    expect(parseBasicAuth(`Basic ${b64("miguel:py:thon")}`)).toEqual({ user: "miguel", password: "py:thon" });
  });

  it("accepts the scheme name in any case", () => {
    expect(parseBasicAuth(`bAsIc ${b64("a:b")}`)).toEqual({ user: "a", password: "b" });
  });

  it.each([
    ["no header", undefined],
    ["an empty header", ""],
    ["another scheme carrying Basic credentials", `Bearer ${b64("miguel:python")}`],
    ["invalid base64", "Basic !!!!"],
    ["base64 with trailing junk", `Basic ${b64("miguel:python")}xyz`],
    ["credentials without a colon", `Basic ${b64("miguelpython")}`],
    ["an empty user name", `Basic ${b64(":python")}`],
    ["the scheme alone", "Basic"],
  ])("rejects %s", (_label, value) => {
    expect(parseBasicAuth(value)).toBeUndefined();
  });

  it("round-trips any user without a colon and any password", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((u) => !u.includes(":")),
        fc.string(),
        (user, password) => {
          const parsed = parseBasicAuth(`Basic ${Buffer.from(`${user}:${password}`, "utf8").toString("base64")}`);
          // Lone surrogates do not survive UTF-8; everything else must round-trip.
          if (Buffer.from(user + password, "utf8").toString("utf8") === user + password) {
            expect(parsed).toEqual({ user, password });
          }
        },
      ),
    );
  });

  it("never throws on arbitrary header text", () => {
    fc.assert(fc.property(fc.string(), (value) => void parseBasicAuth(value)));
  });
});

describe("the cost of a wrong password (issue 35 §9)", () => {
  it("is one scrypt for an unknown user name, as for a known one: the time says nothing of who exists", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const crypto = require("node:crypto") as typeof import("node:crypto");
    const { hashPassword } = require("../../../lib/auth/passwordHash") as typeof import("../../../lib/auth/passwordHash");
    const { parseUsers } = require("../../../lib/auth/users") as typeof import("../../../lib/auth/users");
    const users = parseUsers(`ops:${hashPassword("Right-Pa55-word", { N: 1024, r: 8, p: 1 })}`);
    const scrypt = jest.spyOn(crypto, "scryptSync");
    try {
      expect(users.verify("ops", "wrong")).toBe(false);
      expect(users.verify("nobody", "wrong")).toBe(false);
      expect(scrypt).toHaveBeenCalledTimes(2);
      expect(scrypt.mock.calls.map((call) => call[3])).toEqual([call(1024), call(1024)]);
    } finally {
      scrypt.mockRestore();
    }
  });
});

const call = (N: number) => expect.objectContaining({ N, r: 8, p: 1 });
