import fc from "fast-check";
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import {
  callerOfClaims,
  claimedSubject,
  forAudience,
  groupsOf,
  looksLikeJwt,
  type OidcSettings,
  readConsoleSignIn,
  readOidcSettings,
  verifyJwt,
} from "../../../lib/auth/oidc";
import { parseRoles } from "../../../lib/auth/roles";
import { cookie, cookieValue, endSession } from "../../../lib/auth/sessionCookie";
import { readSettings } from "../../../lib/config/settings";
import { UnavailableError } from "../../../lib/errors";

type CryptoKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];

// The verification's rules against real signatures (jose's own keys, a key set held in memory);
// the real provider's tokens, over HTTP, are tests/e2e/oidc.e2e.test.ts's.
const ISSUER = "https://idp.example.com/realms/ops";
const oidc = readOidcSettings({ OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: "rackhd,other-app" })!;

let signingKey: CryptoKey;
let strangerKey: CryptoKey;
let keys: ReturnType<typeof createLocalJWKSet>;

// Two RSA keys: a fraction of a second alone, but more than jest's 5 s once, on two cores shared
// with a mutation run (a key's primes are searched for; how long is luck and load, not our code).
beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  signingKey = pair.privateKey;
  strangerKey = (await generateKeyPair("RS256")).privateKey;
  keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" }] });
}, 60_000);

const NOW = new Date("2026-11-28T12:00:00Z");
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

function sign(claims: JWTPayload, options: { key?: CryptoKey; issuedAt?: Date; ttl?: number; kid?: string } = {}): Promise<string> {
  const issuedAt = options.issuedAt ?? NOW;
  return new SignJWT({ iss: ISSUER, aud: "rackhd", sub: "u-1", ...claims })
    .setProtectedHeader({ alg: "RS256", kid: options.kid ?? "k1" })
    .setIssuedAt(seconds(issuedAt))
    .setExpirationTime(seconds(issuedAt) + (options.ttl ?? 300))
    .sign(options.key ?? signingKey);
}

describe("OIDC_* settings", () => {
  it("are off without an issuer, and an audience alone is refused", () => {
    expect(readOidcSettings({})).toBeUndefined();
    expect(() => readOidcSettings({ OIDC_AUDIENCE: "x" })).toThrow("OIDC_AUDIENCE is set but OIDC_ISSUER is not");
  });

  it("take the issuer, the audiences, the claims and a default role of none", () => {
    expect(oidc).toEqual({
      issuer: ISSUER,
      audiences: ["rackhd", "other-app"],
      nameClaim: "email",
      groupsClaim: "groups",
      defaultGrants: [],
      authorizer: "function",
    });
    expect(
      readOidcSettings({
        OIDC_ISSUER: "http://127.0.0.1:4000",
        OIDC_AUDIENCE: "a",
        OIDC_NAME_CLAIM: "username",
        OIDC_GROUPS_CLAIM: "cognito:groups",
        OIDC_DEFAULT_ROLE: "viewer@rack-1",
        OIDC_AUTHORIZER: "Gateway",
      }),
    ).toMatchObject({
      nameClaim: "username",
      groupsClaim: "cognito:groups",
      defaultGrants: [{ role: "viewer", sites: ["rack-1"] }],
      authorizer: "gateway",
    });
  });

  it.each([
    [{ OIDC_ISSUER: "not a url", OIDC_AUDIENCE: "a" }, "OIDC_ISSUER must be the provider's issuer URL"],
    [{ OIDC_ISSUER: "http://idp.example.com", OIDC_AUDIENCE: "a" }, "OIDC_ISSUER must be an https URL"],
    [{ OIDC_ISSUER: ISSUER }, "OIDC_AUDIENCE must name the audience"],
    [{ OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: " , " }, "OIDC_AUDIENCE must name the audience"],
    [{ OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: "a", OIDC_AUTHORIZER: "lambda" }, "OIDC_AUTHORIZER must be one of function, gateway"],
    [{ OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: "a", OIDC_DEFAULT_ROLE: "root" }, "OIDC_DEFAULT_ROLE must be none"],
    [{ OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: "a", OIDC_GROUPS_CLAIM: "groups; rm" }, "OIDC_GROUPS_CLAIM must be a claim's name"],
    [{ OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: "a", OIDC_NAME_CLAIM: "a b" }, "OIDC_NAME_CLAIM must be a claim's name"],
  ])("refuse %j", (env, message) => {
    expect(() => readOidcSettings(env)).toThrow(message);
  });

  it("refuse the gateway's authorizer beside a Basic user list, which would never be asked", () => {
    const gateway = { OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: "a", OIDC_AUTHORIZER: "gateway" };
    expect(() => readSettings({ ...gateway, AUTH_USERS: "admin:pw" })).toThrow("OIDC_AUTHORIZER=gateway");
    expect(() => readSettings({ ...gateway, AUTH_USERS_PARAMETER: "/x/users" })).toThrow("OIDC_AUTHORIZER=gateway");
    expect(readSettings(gateway).oidc?.authorizer).toBe("gateway");
    expect(readSettings({ ...gateway, OIDC_AUTHORIZER: "function", AUTH_USERS: "admin:pw" }).oidc?.authorizer).toBe("function");
  });
});

describe("verifyJwt", () => {
  it("gives the claims of a token the provider signed for this service", async () => {
    const claims = await verifyJwt(oidc, keys, await sign({ email: "alice@example.com" }), NOW);
    expect(claims).toMatchObject({ sub: "u-1", email: "alice@example.com" });
  });

  it("takes Cognito's access tokens, which name the app client and no audience", async () => {
    const token = await sign({ aud: undefined, client_id: "rackhd", token_use: "access" });
    expect(await verifyJwt(oidc, keys, token, NOW)).toMatchObject({ client_id: "rackhd" });
  });

  it.each<[string, JWTPayload, Parameters<typeof sign>[1]]>([
    ["another audience", { aud: "billing" }, {}],
    ["another audience beside a client id", { aud: "billing", client_id: "rackhd" }, {}],
    ["no audience and another client", { aud: undefined, client_id: "billing" }, {}],
    ["another issuer", { iss: "https://evil.example.com" }, {}],
    ["an expired token", {}, { issuedAt: new Date(NOW.getTime() - 3600_000) }],
    ["a token from the future", { nbf: seconds(NOW) + 3600 }, {}],
    ["another key", {}, { key: undefined, kid: "k1" }],
    ["an unknown key id", {}, { kid: "k2" }],
  ])("refuses %s", async (_name, claims, options) => {
    const token = await sign(claims, _name === "another key" ? { ...options, key: strangerKey } : options);
    expect(await verifyJwt(oidc, keys, token, NOW)).toBeUndefined();
  });

  it("allows 5 s between the provider's clock and the function's, no more", async () => {
    const token = await sign({}, { issuedAt: new Date(NOW.getTime() - 304_000) });
    expect(await verifyJwt(oidc, keys, token, NOW)).toBeDefined();
    expect(await verifyJwt(oidc, keys, token, new Date(NOW.getTime() + 2_000))).toBeUndefined();
  });

  it("refuses an unsigned token and an HMAC one (algorithm confusion)", async () => {
    const header = (alg: string) => Buffer.from(JSON.stringify({ alg, kid: "k1" })).toString("base64url");
    const body = Buffer.from(JSON.stringify({ iss: ISSUER, aud: "rackhd", sub: "u", exp: seconds(NOW) + 60 })).toString("base64url");
    expect(await verifyJwt(oidc, keys, `${header("none")}.${body}.`, NOW)).toBeUndefined();
    const hmac = await new SignJWT({ iss: ISSUER, aud: "rackhd", sub: "u" })
      .setProtectedHeader({ alg: "HS256", kid: "k1" })
      .setExpirationTime(seconds(NOW) + 60)
      .sign(new TextEncoder().encode("a shared secret of thirty-two bytes!"));
    expect(await verifyJwt(oidc, keys, hmac, NOW)).toBeUndefined();
  });

  it("refuses every altered token (property)", async () => {
    const token = await sign({ email: "alice@example.com" });
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: token.length - 1 }), fc.constantFrom(..."AQw-_x9."), async (at, char) => {
        fc.pre(token[at] !== char);
        const altered = `${token.slice(0, at)}${char}${token.slice(at + 1)}`;
        // The last signature character carries padding bits: a change there may decode to the same bytes.
        fc.pre(at < token.length - 1);
        expect(await verifyJwt(oidc, keys, altered, NOW)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it("refuses every token whose claims or header were rewritten under the genuine signature (property)", async () => {
    const token = await sign({ email: "alice@example.com", groups: ["auditors"] });
    const [header, payload, signature] = token.split(".");
    const json = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString());
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const claims = fc.record(
      {
        sub: fc.string(),
        groups: fc.array(fc.string(), { maxLength: 3 }),
        exp: fc.integer(),
        aud: fc.constantFrom("rackhd", "x"),
        email: fc.string(),
      },
      { requiredKeys: [] },
    );
    const headers = fc.constantFrom(
      { alg: "none" },
      { alg: "HS256" },
      { alg: "RS512" },
      { kid: "k2" },
      { jku: "https://evil.example.com/keys" },
      { crit: ["exp"] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          claims.map((changed) => ({ changed, at: "payload" as const })),
          headers.map((changed) => ({ changed, at: "header" as const })),
        ),
        async ({ changed, at }) => {
          const rewritten =
            at === "payload"
              ? `${header}.${encode({ ...json(payload), ...changed })}.${signature}`
              : `${encode({ ...json(header), ...changed })}.${payload}.${signature}`;
          fc.pre(rewritten !== token);
          // The signature covers the header too: a header naming another key set (jku) or none is refused, never followed.
          expect(await verifyJwt(oidc, keys, rewritten, NOW)).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is a 503 when the provider's keys cannot be had, never a sign-in", async () => {
    const token = await sign({});
    const down = async () => {
      throw new TypeError("fetch failed");
    };
    await expect(verifyJwt(oidc, down, token, NOW)).rejects.toBeInstanceOf(UnavailableError);
  });
});

describe("who a token is from", () => {
  const roles = parseRoles(
    "oidc:alice@example.com=operator@rack-1,group:auditors=viewer,group:netops=admin,client:automation=operator,automation=admin",
  );

  it("is a user's verified name claim, qualified oidc:, with the grants of the name and of each group", () => {
    expect(callerOfClaims(oidc, roles, { sub: "u-1", email: "alice@example.com", email_verified: true, groups: ["auditors"] })).toEqual({
      name: "oidc:alice@example.com",
      grants: [
        { role: "operator", sites: ["rack-1"] },
        { role: "viewer", sites: "*" },
      ],
      groups: ["auditors"],
    });
    expect(callerOfClaims(oidc, roles, { sub: "u-2", groups: "netops" })).toEqual({
      name: "oidc:u-2",
      grants: [{ role: "admin", sites: "*" }],
      groups: ["netops"],
    });
  });

  it('takes no unverified e-mail as a name: the user is its subject (Cognito\'s string "true" is verified)', () => {
    for (const unverified of [undefined, false, "false", "yes"])
      expect(callerOfClaims(oidc, roles, { sub: "u-9", email: "alice@example.com", email_verified: unverified }).name).toBe("oidc:u-9");
    expect(callerOfClaims(oidc, roles, { sub: "u-9", email: "alice@example.com", email_verified: "true" }).name).toBe(
      "oidc:alice@example.com",
    );
    // Another name claim is the provider's to vouch for.
    const byUsername: OidcSettings = { ...oidc, nameClaim: "preferred_username" };
    expect(callerOfClaims(byUsername, roles, { sub: "u-9", preferred_username: "alice" }).name).toBe("oidc:alice");
  });

  it("names a client's own token client:<id>, never a Basic user's or a provider's user's name", () => {
    const client = callerOfClaims(oidc, roles, { sub: "automation", client_id: "automation" });
    expect(client).toEqual({ name: "client:automation", grants: [{ role: "operator", sites: "*" }], groups: [] });
    expect(callerOfClaims(oidc, roles, { sub: "automation", azp: "automation" }).name).toBe("client:automation");
    // A user whose subject happens to be a client's id, through another client, is a user.
    expect(callerOfClaims(oidc, roles, { sub: "automation", client_id: "rackhd-console" }).name).toBe("oidc:automation");
  });

  it("holds OIDC_DEFAULT_ROLE's grant when no name or group is mapped (none unless said)", () => {
    expect(callerOfClaims(oidc, roles, { sub: "u-3", groups: ["sales", 7] })).toEqual({ name: "oidc:u-3", grants: [], groups: ["sales"] });
    const viewerByDefault: OidcSettings = { ...oidc, defaultGrants: [{ role: "viewer", sites: "*" }] };
    expect(callerOfClaims(viewerByDefault, roles, {}).grants).toEqual([{ role: "viewer", sites: "*" }]);
    expect(callerOfClaims(viewerByDefault, roles, {}).name).toBe("oidc:unnamed");
  });

  it("reads groups from a list or one name, and nothing else", () => {
    expect(groupsOf({ g: ["a", "", 3, "b"] }, "g")).toEqual(["a", "b"]);
    expect(groupsOf({ g: "a" }, "g")).toEqual(["a"]);
    expect(groupsOf({ g: { a: 1 } }, "g")).toEqual([]);
    expect(groupsOf({}, "g")).toEqual([]);
  });
});

describe("the shapes", () => {
  it("tell a JWT from an API token", () => {
    expect(looksLikeJwt("eyJh.eyJz.c2ln")).toBe(true);
    expect(looksLikeJwt("eyJh.eyJz.")).toBe(true);
    expect(looksLikeJwt("rhdt_0123456789abcdef_0123456789abcdef0123456789abcdef")).toBe(false);
    expect(looksLikeJwt("a.b")).toBe(false);
    expect(looksLikeJwt(`a.${"b".repeat(16_384)}.c`)).toBe(false);
  });

  it("count a failed token under the subject it claims, whatever it holds", async () => {
    expect(claimedSubject(await sign({ sub: "u-9" }))).toBe("u-9");
    expect(claimedSubject("x.bm90IGpzb24.y")).toBe("unknown");
    expect(claimedSubject(`x.${Buffer.from(JSON.stringify({ sub: 5 })).toString("base64url")}.y`)).toBe("unknown");
    expect(claimedSubject("x")).toBe("unknown");
  });

  it("audience: aud as a list, as one, or a client id only where there is no aud", () => {
    expect(forAudience({ aud: ["x", "rackhd"] }, ["rackhd"])).toBe(true);
    expect(forAudience({ aud: "x" }, ["rackhd"])).toBe(false);
    expect(forAudience({ client_id: "rackhd" }, ["rackhd"])).toBe(true);
    expect(forAudience({ client_id: 5 }, ["rackhd"])).toBe(false);
  });
});

describe("the console's sign-in settings and cookies", () => {
  it("are off without a console client, and need a provider", () => {
    expect(readConsoleSignIn({}, oidc)).toBeUndefined();
    expect(() => readConsoleSignIn({ OIDC_CONSOLE_CLIENT: "c" }, undefined)).toThrow("OIDC_CONSOLE_CLIENT is set but OIDC_ISSUER is not");
  });

  it("ask for openid email by default, and for the first audience as the resource when it is a URI", () => {
    expect(readConsoleSignIn({ OIDC_CONSOLE_CLIENT: "console" }, oidc)).toEqual({
      clientId: "console",
      scope: "openid email",
      resource: undefined,
    });
    const uri = { ...oidc, audiences: ["urn:rackhd:api"] };
    expect(readConsoleSignIn({ OIDC_CONSOLE_CLIENT: "console", OIDC_CONSOLE_SCOPE: "openid email groups" }, uri)).toEqual({
      clientId: "console",
      scope: "openid email groups",
      resource: "urn:rackhd:api",
    });
    // Cognito: the audience is the console's own client id, no resource is sent.
    expect(readConsoleSignIn({ OIDC_CONSOLE_CLIENT: "3n4b5urk" }, { ...oidc, audiences: ["3n4b5urk"] })?.resource).toBeUndefined();
  });

  it.each([
    [{ OIDC_CONSOLE_CLIENT: "a b" }, "OIDC_CONSOLE_CLIENT must be a client id"],
    [{ OIDC_CONSOLE_CLIENT: "c", OIDC_CONSOLE_SCOPE: "email groups" }, "openid among them"],
    [{ OIDC_CONSOLE_CLIENT: "c", OIDC_CONSOLE_SCOPE: "openid  email" }, "OIDC_CONSOLE_SCOPE must be space-separated scopes"],
  ])("refuse %j", (env, message) => {
    expect(() => readConsoleSignIn(env, oidc)).toThrow(message);
  });

  it("read a cookie from API Gateway's list or a header, and write them HttpOnly", () => {
    expect(cookieValue(["a=1", "rhd_session=t.o.k"], "rhd_session")).toBe("t.o.k");
    expect(cookieValue(["a=1; rhd_session = x ;b=2"], "rhd_session")).toBe("x");
    expect(cookieValue(["rhd_session_old=1", "=2", "x"], "rhd_session")).toBeUndefined();
    expect(cookieValue(undefined, "rhd_session")).toBeUndefined();
    expect(cookie("n", "v", { path: "/prod", maxAge: 60, secure: false, sameSite: "Lax" })).toBe(
      "n=v; Path=/prod; Max-Age=60; HttpOnly; SameSite=Lax",
    );
    expect(endSession("", false)).toBe("rhd_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict");
  });
});
