import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from "jose";
import { ConfigError, UnavailableError } from "../errors";
import { type Caller, PROVIDER_CLIENT, PROVIDER_USER } from "./caller";
import { defaultGrants, type Grant, type RoleMap } from "./roles";

/**
 * Sign-in with the company's identity provider (issue 55): an OpenID Connect provider's signed
 * JWTs (access or ID tokens), sent as `Authorization: Bearer <jwt>`. From the OIDC_* settings.
 */
export interface OidcSettings {
  /** OIDC_ISSUER: the provider's issuer URL, as its tokens' `iss` says it (https, or http on this machine). */
  issuer: string;
  /** OIDC_AUDIENCE: the audiences (or Cognito's app client ids) a token must be for; one is enough. */
  audiences: readonly string[];
  /** OIDC_NAME_CLAIM: the claim naming the user in AUTH_ROLES and the audit trail (`sub` when the token has none). */
  nameClaim: string;
  /** OIDC_GROUPS_CLAIM: the claim listing the user's groups (`group:<name>` in AUTH_ROLES). */
  groupsClaim: string;
  /** OIDC_DEFAULT_ROLE: what a signed-in user AUTH_ROLES names not (nor any of their groups) holds; none unless said. */
  defaultGrants: readonly Grant[];
  /**
   * OIDC_AUTHORIZER: `function` (the function checks the token: Basic, API tokens and the
   * provider's JWTs side by side) or `gateway` (also the HTTP API's JWT authorizer on every
   * protected route: nothing but the provider's JWTs reaches a function).
   */
  authorizer: "function" | "gateway";
}

type Env = Record<string, string | undefined>;

/** Signatures an identity provider uses (Cognito, Entra ID, Okta, Keycloak, Google: RS256; others ES256 or EdDSA); never `none` or an HMAC. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];

/** Clocks differ a little between the provider and Lambda (both keep NTP time: seconds at most). */
const CLOCK_TOLERANCE_SECONDS = 5;

/** How long a container keeps the provider's discovery document: a new signing key is in its JWKS, which jose fetches again when a token names an unknown key. */
const DISCOVERY_CACHE_MS = 60 * 60 * 1000;

/** A provider that does not answer within this is an outage (503), not a hung function. */
const FETCH_TIMEOUT_MS = 3000;

const CLAIM = /^[\w:./-]{1,128}$/;

function claimName(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim() || fallback;
  if (!CLAIM.test(raw)) throw new ConfigError(`${name} must be a claim's name (got "${raw.slice(0, 80)}")`);
  return raw;
}

/** The OIDC_* settings; undefined when OIDC_ISSUER is unset (no sign-in with a provider). */
export function readOidcSettings(env: Env): OidcSettings | undefined {
  const issuer = env.OIDC_ISSUER?.trim();
  if (!issuer) {
    if (env.OIDC_AUDIENCE?.trim()) throw new ConfigError("OIDC_AUDIENCE is set but OIDC_ISSUER is not: set both");
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ConfigError(`OIDC_ISSUER must be the provider's issuer URL (got "${issuer.slice(0, 80)}")`);
  }
  const local = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
  // Over plain http anyone on the way could hand the functions their own signing keys.
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local))
    throw new ConfigError(`OIDC_ISSUER must be an https URL (http only on this machine) (got "${issuer.slice(0, 80)}")`);
  const audiences = (env.OIDC_AUDIENCE ?? "")
    .split(",")
    .map((audience) => audience.trim())
    .filter((audience) => audience !== "");
  // Without an audience any token the provider signs for any application would do.
  if (audiences.length === 0) throw new ConfigError("OIDC_AUDIENCE must name the audience (or app client id) the service's tokens are for");
  const authorizer = env.OIDC_AUTHORIZER?.trim().toLowerCase() || "function";
  if (authorizer !== "function" && authorizer !== "gateway")
    throw new ConfigError(`OIDC_AUTHORIZER must be one of function, gateway (got "${authorizer.slice(0, 80)}")`);
  let fallback: Grant[];
  try {
    fallback = defaultGrants(env.OIDC_DEFAULT_ROLE?.trim() || "none");
  } catch (error) {
    throw new ConfigError((error as Error).message.replace("AUTH_DEFAULT_ROLE", "OIDC_DEFAULT_ROLE"));
  }
  return {
    issuer,
    audiences,
    nameClaim: claimName(env, "OIDC_NAME_CLAIM", "email"),
    groupsClaim: claimName(env, "OIDC_GROUPS_CLAIM", "groups"),
    defaultGrants: fallback,
    authorizer,
  };
}

/** The console's sign-in with the provider (lib/auth/consoleSignIn.ts runs it): the OIDC_CONSOLE_* settings. */
export interface ConsoleSignIn {
  /** OIDC_CONSOLE_CLIENT: the console's client id at the provider (a public client: PKCE, no secret). */
  clientId: string;
  /** OIDC_CONSOLE_SCOPE: the scopes asked for (space-separated). */
  scope: string;
  /** The RFC 8707 resource asked for (the first OIDC_AUDIENCE when it is a URI, as oidc-provider and Auth0 want); else none. */
  resource: string | undefined;
}

/** The OIDC_CONSOLE_* settings; undefined when the console signs in with no provider. */
export function readConsoleSignIn(env: Env, oidc: OidcSettings | undefined): ConsoleSignIn | undefined {
  const clientId = env.OIDC_CONSOLE_CLIENT?.trim();
  if (!clientId) return undefined;
  if (!oidc)
    throw new ConfigError("OIDC_CONSOLE_CLIENT is set but OIDC_ISSUER is not: the console signs in with the provider OIDC_ISSUER names");
  if (!/^[\w.:@/-]{1,256}$/.test(clientId))
    throw new ConfigError(`OIDC_CONSOLE_CLIENT must be a client id (got "${clientId.slice(0, 80)}")`);
  const scope = env.OIDC_CONSOLE_SCOPE?.trim() || "openid email";
  if (!/^[\w:./-]+( [\w:./-]+)*$/.test(scope) || !scope.split(" ").includes("openid"))
    throw new ConfigError(`OIDC_CONSOLE_SCOPE must be space-separated scopes, openid among them (got "${scope.slice(0, 80)}")`);
  const first = oidc.audiences[0];
  return { clientId, scope, resource: /^[a-z][a-z0-9+.-]*:/i.test(first) && first !== clientId ? first : undefined };
}

/** A JWT's shape (three base64url parts), told apart from an API token (`rhdt_…`) before any key is fetched. */
export const looksLikeJwt = (token: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token) && token.length <= 16_384;

/**
 * The token is for this service: its `aud` names one of the audiences, or (Cognito's access
 * tokens carry no `aud`) its `client_id` does, as the HTTP API's JWT authorizer checks.
 */
export function forAudience(claims: JWTPayload, audiences: readonly string[]): boolean {
  const aud = claims.aud === undefined ? [] : Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (aud.some((value) => audiences.includes(value))) return true;
  return aud.length === 0 && typeof claims.client_id === "string" && audiences.includes(claims.client_id);
}

/**
 * The claims of a token the provider signed for this service, now; undefined for any other
 * (forged, expired, not yet valid, another issuer's or audience's, an unknown key, not a JWT).
 * A provider that cannot be reached is a 503: nobody is let in, and the next request tries again.
 */
export async function verifyJwt(oidc: OidcSettings, keys: JWTVerifyGetKey, token: string, now: Date): Promise<JWTPayload | undefined> {
  try {
    const { payload } = await jwtVerify(token, keys, {
      issuer: oidc.issuer,
      algorithms: ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: now,
    });
    return forAudience(payload, oidc.audiences) ? payload : undefined;
  } catch (error) {
    // The provider's fault (no answer, a key set that is not one), not the token's: nobody is let in, and 503 says try again.
    const providers = error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || !(error instanceof errors.JOSEError);
    if (providers || (error as errors.JOSEError).code === errors.JOSEError.code)
      throw new UnavailableError(
        "The identity provider cannot be reached now",
        5,
        `OIDC keys of ${oidc.issuer}: ${(error as Error).message}`,
      );
    return undefined;
  }
}

/** A provider's answer as JSON, or the 503 its outage is. */
async function fetchJson(url: string): Promise<Record<string, unknown>> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: "error" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  } catch (error) {
    throw new UnavailableError("The identity provider cannot be reached now", 5, `${url}: ${(error as Error).message}`);
  }
}

let discovered: { issuer: string; at: number; keys: Promise<JWTVerifyGetKey> } | undefined;

/**
 * The provider's signing keys (its discovery document's `jwks_uri`), found once per container and
 * kept DISCOVERY_CACHE_MS; jose caches the key set itself and fetches it again for an unknown key
 * id (a rotation), at most once in 30 s. A failed discovery is not kept.
 */
export function providerKeys(oidc: OidcSettings, now = Date.now()): Promise<JWTVerifyGetKey> {
  if (discovered?.issuer === oidc.issuer && now - discovered.at < DISCOVERY_CACHE_MS) return discovered.keys;
  const keys = (async () => {
    const document = await fetchJson(`${oidc.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`);
    // The document must be the issuer's own: another issuer's keys would sign for it.
    if (document.issuer !== oidc.issuer || typeof document.jwks_uri !== "string")
      throw new UnavailableError(
        "The identity provider cannot be used now",
        30,
        `OIDC discovery of ${oidc.issuer}: issuer or jwks_uri wrong`,
      );
    return createRemoteJWKSet(new URL(document.jwks_uri), { timeoutDuration: FETCH_TIMEOUT_MS });
  })();
  discovered = { issuer: oidc.issuer, at: now, keys };
  keys.catch(() => {
    if (discovered?.keys === keys) discovered = undefined;
  });
  return keys;
}

/** The claim's value if it is a non-empty string. */
const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** A groups claim: a list of names (Cognito's `cognito:groups`, Keycloak's, Entra ID's ids), or one name. */
export function groupsOf(claims: JWTPayload, claim: string): string[] {
  const value = claims[claim];
  if (Array.isArray(value)) return value.filter((group): group is string => typeof group === "string" && group !== "");
  const one = text(value);
  return one === undefined ? [] : [one];
}

/** A claim that is true: JSON's true, or the string "true" (Cognito's ID tokens). */
const isTrue = (value: unknown): boolean => value === true || value === "true";

/**
 * The token is a client's own (the client credentials grant): its subject is the client that asked
 * for it (`client_id`, or `azp`), as Cognito's, Okta's and oidc-provider's are.
 */
const isClientToken = (claims: JWTPayload): boolean =>
  text(claims.sub) !== undefined && (claims.client_id === claims.sub || claims.azp === claims.sub);

/**
 * The name a user's token gives: OIDC_NAME_CLAIM's value, else `sub`. An e-mail is a name only when
 * the provider says it verified it (`email_verified`): where users edit their own e-mail (a
 * Keycloak profile, Cognito before confirmation), one could otherwise take another's.
 */
function userName(oidc: OidcSettings, claims: JWTPayload): string {
  const named = text(claims[oidc.nameClaim]);
  const verified = oidc.nameClaim !== "email" || isTrue(claims.email_verified);
  return (verified ? named : undefined) ?? text(claims.sub) ?? "unnamed";
}

/**
 * Who a verified token is from: a client (`client:<id>`) or a user (`oidc:<name>`, see userName),
 * and the grants of that name and its groups (AUTH_ROLES), else OIDC_DEFAULT_ROLE's.
 */
export function callerOfClaims(oidc: OidcSettings, roles: RoleMap, claims: JWTPayload): Caller {
  const name = isClientToken(claims) ? `${PROVIDER_CLIENT}${text(claims.sub)}` : `${PROVIDER_USER}${userName(oidc, claims)}`;
  const groups = groupsOf(claims, oidc.groupsClaim);
  return { name, grants: roles.of(name, groups, oidc.defaultGrants), groups };
}

/** The part of an unverified token its failed attempts are counted under: its subject (as a Basic user's name is), never trusted for more. */
export function claimedSubject(token: string): string {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as JWTPayload;
    return text(payload.sub)?.slice(0, 128) ?? "unknown";
  } catch {
    return "unknown";
  }
}
