import type middy from "@middy/core";
import { apiTokenStore, authenticateToken, noteSignIn, recentSignIn, TOKEN_PREFIX, tokenIdOf } from "../../auth/apiTokens";
import { attemptCounter, attemptKeys, isHeld, windowOf } from "../../auth/attemptLimiter";
import { type Action, authorize } from "../../auth/authorize";
import { parseBasicAuth, parseBearer } from "../../auth/basicAuth";
import { type Caller, isProviderName } from "../../auth/caller";
import { callerOfClaims, claimedSubject, looksLikeJwt, providerKeys, verifyJwt } from "../../auth/oidc";
import type { Grant } from "../../auth/roles";
import { sessionToken } from "../../auth/sessionCookie";
import { parseUsers, type UserTable } from "../../auth/users";
import { type Settings, settings } from "../../config/settings";
import { ForbiddenError, TooManyAttemptsError, UnauthorizedError, UnavailableError } from "../../errors";
import { currentInvocation } from "../../invocation";
import { logLine } from "../../logger";
import { type HttpEvent, type HttpResult, header } from "../event";
import { setCaller } from "../principal";
import { SAFE_METHODS, sameOrigin } from "./browserGuard";

let warnedNoUsers = false;

/** How long a container keeps the user list read from SSM: a rotation reaches every container within it. */
const PARAMETER_CACHE_MS = 5 * 60 * 1000;

let fromParameter: { name: string; at: number; users: Promise<UserTable> } | undefined;

/**
 * AUTH_USERS_PARAMETER: the user list from SSM Parameter Store (a SecureString, decrypted), read
 * once per container and kept PARAMETER_CACHE_MS. The SSM client (provided by the Lambda runtime,
 * like the DynamoDB one) is loaded only when the setting is on. A failed read is a 503 and is not
 * kept: nobody is let in, and the next request tries again.
 */
function usersFromParameter(name: string): Promise<UserTable> {
  const now = Date.now();
  if (fromParameter?.name === name && now - fromParameter.at < PARAMETER_CACHE_MS) return fromParameter.users;
  const users = (async () => {
    const { SSMClient, GetParameterCommand } = await import("@aws-sdk/client-ssm");
    const client = new SSMClient({});
    try {
      const { Parameter } = await client.send(new GetParameterCommand({ Name: name, WithDecryption: true }));
      return parseUsers(Parameter?.Value ?? "");
    } catch (error) {
      throw new UnavailableError("The user list cannot be read now", 5, `SSM parameter ${name}: ${(error as Error).message}`);
    } finally {
      client.destroy();
    }
  })();
  fromParameter = { name, at: now, users };
  users.catch(() => {
    if (fromParameter?.users === users) fromParameter = undefined;
  });
  return users;
}

/** `?auth_token=<token>` (RackHD's way to send its /login token), removed from the event's query once read. */
function takeQueryToken(event: HttpEvent): string | undefined {
  const token = event.queryStringParameters?.auth_token;
  if (token === undefined) return undefined;
  const { auth_token: _taken, ...rest } = event.queryStringParameters ?? {};
  event.queryStringParameters = Object.keys(rest).length > 0 ? rest : undefined;
  const query = new URLSearchParams(event.rawQueryString ?? "");
  query.delete("auth_token");
  event.rawQueryString = query.toString();
  return token.split(",")[0] || undefined;
}

/**
 * Who the credentials are from, or undefined: a Basic user's password, an API token (`rhdt_…`),
 * or the identity provider's JWT (OIDC_ISSUER); a JWT without a provider is refused as any wrong token.
 */
async function callerOf(
  config: Settings,
  users: UserTable,
  credentials: { user: string; password: string } | undefined,
  bearer: string | undefined,
): Promise<Caller | undefined> {
  if (credentials) return users.verify(credentials.user, credentials.password) ? basicCaller(config, credentials.user) : undefined;
  const now = new Date();
  if (config.oidc && looksLikeJwt(bearer!)) {
    const claims = await verifyJwt(config.oidc, await providerKeys(config.oidc), bearer!, now);
    if (!claims) return undefined;
    const caller = callerOfClaims(config.oidc, config.authRoles, claims);
    // What its API tokens are granted by until its next sign-in.
    await noteSignIn(apiTokenStore(), caller, now);
    return caller;
  }
  return tokenCaller(config, users, bearer!, now);
}

/** An API token's or a console session's caller, its grant narrowed to what its owner holds now; undefined for one that opens nothing. */
export const tokenCaller = (config: Settings, users: UserTable, token: string, now: Date): Promise<Caller | undefined> =>
  authenticateToken(apiTokenStore(), token, now, (owner) => ownerGrants(config, users, owner, now));

/**
 * What a token's owner holds now: a Basic user still listed in AUTH_USERS, by AUTH_ROLES as it is
 * now; a provider's user or client that signed in within PROVIDER_SIGN_IN_DAYS, by AUTH_ROLES now
 * and the groups it was last seen with; nothing for any other (removed, or the provider gone).
 */
export async function ownerGrants(config: Settings, users: UserTable, owner: string, now: Date): Promise<readonly Grant[]> {
  if (!isProviderName(owner)) return users.has(owner) ? basicCaller(config, owner).grants : [];
  if (!config.oidc) return [];
  const groups = await recentSignIn(apiTokenStore(), owner, now);
  return groups ? config.authRoles.of(owner, groups, config.oidc.defaultGrants) : [];
}

/** A Basic user's caller: the grants AUTH_ROLES gives the name, else AUTH_DEFAULT_ROLE's (the middleware, RackHD's /login and /users). */
export const basicCaller = (config: Settings, user: string): Caller => ({
  name: user,
  grants: config.authRoles.of(user, [], config.authDefaultGrants),
});

/** The Basic users: AUTH_USERS, or the SSM parameter AUTH_USERS_PARAMETER names (read as above). */
export const configuredUsers = (config: Settings): Promise<UserTable> =>
  config.authUsersParameter ? usersFromParameter(config.authUsersParameter) : Promise.resolve(config.authUsers);

/**
 * HTTP Basic auth on the routes for which `isProtected(settings)` holds, then the policy on the
 * user's grants (AUTH_ROLES). Runs before the body is read, so 401/403 comes before 404 and 400.
 * With auth on and no users configured, nobody gets in.
 */
export function basicAuth(isProtected: (config: Settings) => boolean, action: Action): middy.MiddlewareObj<HttpEvent, HttpResult> {
  return {
    before: async (request) => {
      const config = settings();
      if (!isProtected(config)) return;
      const users = await configuredUsers(config);
      if (users.size === 0 && !config.oidc) {
        if (!warnedNoUsers) {
          logLine({
            level: "error",
            msg: "auth is on but AUTH_USERS names no user and OIDC_ISSUER no provider: every protected request is refused",
          });
          warnedNoUsers = true;
        }
        throw new UnauthorizedError("Unauthorized access");
      }
      const authorization = header(request.event, "authorization");
      // RackHD's `?auth_token=` (its /login token in the query), taken out of the request so that no page link, log line or handler sees it.
      const queried = authorization === undefined ? takeQueryToken(request.event) : undefined;
      // The console's session (an HttpOnly cookie holding a session token of the service's) where no credentials are sent.
      const cookie = authorization === undefined && !queried && config.oidc ? sessionToken(request.event) : undefined;
      const session = cookie?.startsWith(TOKEN_PREFIX) ? cookie : undefined;
      const bearer = parseBearer(authorization) ?? queried ?? session;
      const credentials = bearer ? undefined : parseBasicAuth(authorization);
      // No credentials: the challenge a client answers (a browser's first request), not a guess.
      if (!credentials && !bearer) throw new UnauthorizedError("Unauthorized access");
      const counter = attemptCounter();
      // A token is counted under its id (the part before the secret), a provider's JWT under the
      // subject it claims: guessing either is limited as a password is.
      const attempted = credentials?.user ?? (looksLikeJwt(bearer!) ? `jwt:${claimedSubject(bearer!)}` : `token:${tokenIdOf(bearer!)}`);
      const keys = attemptKeys(attempted, request.event.requestContext?.http?.sourceIp);
      const { window, left } = windowOf(new Date());
      if (isHeld(await counter.failures(keys, window))) {
        throw new TooManyAttemptsError("Too many failed sign-ins for this user or from this address: try again later", left);
      }
      const caller = await callerOf(config, users, credentials, bearer);
      if (!caller) {
        await counter.fail(keys, window);
        throw new UnauthorizedError("Unauthorized access");
      }
      setCaller(request.event, caller);
      // A cookie goes with any request the browser makes: a change made with it must come from the service's own pages.
      if (session && !SAFE_METHODS.has(request.event.requestContext?.http?.method ?? "GET") && !sameOrigin(request.event))
        throw new ForbiddenError("A change made with the console's session must come from the console's own page");
      // The policy decides (issue 55): 403, or another site's resource as absent, before any handler runs.
      const nodeSites = authorize(caller.grants, action, request.event.pathParameters ?? {});
      const invocation = currentInvocation();
      if (nodeSites && invocation) invocation.nodeSites = nodeSites;
    },
  };
}
