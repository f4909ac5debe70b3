import { callerOfClaims, providerKeys, verifyJwt } from "../../lib/auth/oidc";
import { sessionToken } from "../../lib/auth/sessionCookie";
import { settings } from "../../lib/config/settings";
import { consoleSession } from "../../lib/http/console/routes";
import { endpoint } from "../../lib/http/endpoint";
import { ok } from "../../lib/http/responses";

/** Who the session cookie is from (checked as every request's token is), and whether the console may sign in with the provider. */
export const handler = endpoint(consoleSession, async ({ event }) => {
  const config = settings();
  const token = sessionToken(event);
  let user: string | null = null;
  if (config.oidc && token) {
    const claims = await verifyJwt(config.oidc, await providerKeys(config.oidc), token, new Date());
    user = claims ? callerOfClaims(config.oidc, config.authRoles, claims).name : null;
  }
  return ok({ user, provider: config.consoleSignIn !== undefined });
});
