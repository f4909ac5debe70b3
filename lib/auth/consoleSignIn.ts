import type { JWTPayload } from "jose";
import * as client from "openid-client";
import { NotFoundError, UnavailableError, ValidationError } from "../errors";
import type { ConsoleSignIn, OidcSettings } from "./oidc";
import { cookie, cookieValue, SESSION_COOKIE, SIGN_IN_COOKIE } from "./sessionCookie";

/**
 * The console's sign-in with the identity provider (issue 55): the authorization code flow with
 * PKCE, run by the service for the console (a backend for the front end), with panva's
 * openid-client (certified by the OpenID Foundation). The browser holds its session as an
 * HttpOnly cookie: no token is ever where the page's scripts can read it.
 */
/** The provider and the console's client the sign-in routes use, or their 404 where OIDC_CONSOLE_CLIENT is unset. */
export function consoleProvider(config: { oidc?: OidcSettings; consoleSignIn?: ConsoleSignIn }): {
  oidc: OidcSettings;
  console: ConsoleSignIn;
} {
  if (!config.oidc || !config.consoleSignIn)
    throw new NotFoundError("The console signs in with no identity provider here (OIDC_CONSOLE_CLIENT is unset)");
  return { oidc: config.oidc, console: config.consoleSignIn };
}

/** A session lasts as long as the provider's token, and never longer than this. */
const MAX_SESSION_SECONDS = 12 * 60 * 60;
/** A sign-in started and not finished within this is over. */
const SIGN_IN_SECONDS = 600;

const isLocal = (issuer: string) => /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/.test(issuer);

let configured: { key: string; at: number; config: Promise<client.Configuration> } | undefined;

/** The provider's configuration for the console's client, discovered once per container (an hour); a failure is a 503 and is not kept. */
function configuration(oidc: OidcSettings, console: ConsoleSignIn, now = Date.now()): Promise<client.Configuration> {
  const key = `${oidc.issuer} ${console.clientId}`;
  if (configured?.key === key && now - configured.at < 60 * 60 * 1000) return configured.config;
  const config = client
    .discovery(
      new URL(oidc.issuer),
      console.clientId,
      undefined,
      client.None(),
      // Plain http only to a provider on this machine (OIDC_ISSUER refuses it elsewhere).
      isLocal(oidc.issuer) ? { execute: [client.allowInsecureRequests], timeout: 3 } : { timeout: 3 },
    )
    .catch((error: Error) => {
      throw new UnavailableError("The identity provider cannot be reached now", 5, `OIDC discovery of ${oidc.issuer}: ${error.message}`);
    });
  configured = { key, at: now, config };
  config.catch(() => {
    if (configured?.config === config) configured = undefined;
  });
  return config;
}

/** Where a sign-in starts: the provider's authorization URL, and the cookie carrying its state and PKCE verifier to the callback. */
export async function startSignIn(
  oidc: OidcSettings,
  console: ConsoleSignIn,
  callbackUrl: string,
): Promise<{ location: string; setCookie: string }> {
  const config = await configuration(oidc, console);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const location = client.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl,
    scope: console.scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    ...(console.resource && { resource: console.resource }),
  });
  const url = new URL(callbackUrl);
  // Lax: the provider sends the browser back with a top-level navigation from its own site.
  const setCookie = cookie(SIGN_IN_COOKIE, `${state}.${verifier}`, {
    path: url.pathname,
    maxAge: SIGN_IN_SECONDS,
    secure: url.protocol === "https:",
    sameSite: "Lax",
  });
  return { location: location.href, setCookie };
}

/**
 * The provider's answer at the callback: the code exchanged (with the PKCE verifier, the state
 * checked) for an access token, checked by `verify` as every request's token is. `session` makes
 * the session the cookie holds (an opaque token of the service's, lasting as long as the
 * provider's: lib/auth/apiTokens.ts consoleSessionToken); the provider's token goes no further.
 */
export async function finishSignIn(
  oidc: OidcSettings,
  console: ConsoleSignIn,
  currentUrl: string,
  cookies: readonly string[] | undefined,
  verify: (token: string) => Promise<JWTPayload | undefined>,
  session: (claims: JWTPayload, expires: Date) => Promise<string>,
  now: Date,
): Promise<{ setCookies: string[]; claims: JWTPayload }> {
  const carried = cookieValue(cookies, SIGN_IN_COOKIE);
  const [state, verifier] = carried?.split(".") ?? [];
  if (!state || !verifier) throw new ValidationError("This sign-in was not started here, or took more than 10 minutes: sign in again");
  const url = new URL(currentUrl);
  const refused = url.searchParams.get("error");
  if (refused) throw new ValidationError(`The identity provider did not sign you in: ${refused.slice(0, 100)}`);
  const config = await configuration(oidc, console);
  let accessToken: string;
  try {
    const tokens = await client.authorizationCodeGrant(
      config,
      url,
      { pkceCodeVerifier: verifier, expectedState: state, idTokenExpected: true },
      console.resource ? { resource: console.resource } : undefined,
    );
    accessToken = tokens.access_token;
  } catch (error) {
    if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError || isClientError(error))
      throw new ValidationError(`The sign-in could not be finished: ${(error as Error).message.slice(0, 200)}`);
    throw new UnavailableError("The identity provider cannot be reached now", 5, `OIDC code exchange: ${(error as Error).message}`);
  }
  const claims = await verify(accessToken);
  if (!claims) throw new ValidationError("The identity provider's token is not for this service (OIDC_AUDIENCE)");
  const seconds = Math.min(MAX_SESSION_SECONDS, Math.max(0, (claims.exp ?? 0) - Math.floor(now.getTime() / 1000)));
  const secure = url.protocol === "https:";
  const root = url.pathname.replace(/\/console\/callback$/, "") || "/";
  const value = await session(claims, new Date(now.getTime() + seconds * 1000));
  return {
    claims,
    setCookies: [
      // Strict: no other site's page can make the browser send it.
      cookie(SESSION_COOKIE, value, { path: root, maxAge: seconds, secure, sameSite: "Strict" }),
      cookie(SIGN_IN_COOKIE, "", { path: url.pathname, maxAge: 0, secure, sameSite: "Lax" }),
    ],
  };
}

/** A checks failure of openid-client (a state or issuer mismatch: the browser's request, not the provider's outage). */
const isClientError = (error: unknown): boolean =>
  error instanceof Error && "code" in error && /^OAUTH_(INVALID|.*MISMATCH|JSON|RESPONSE)/.test(String((error as { code: unknown }).code));
