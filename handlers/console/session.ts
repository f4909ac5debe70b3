import { TOKEN_PREFIX } from "../../lib/auth/apiTokens";
import { sessionToken } from "../../lib/auth/sessionCookie";
import { settings } from "../../lib/config/settings";
import { consoleSession } from "../../lib/http/console/routes";
import { endpoint } from "../../lib/http/endpoint";
import { configuredUsers, tokenCaller } from "../../lib/http/middleware/basicAuth";
import { ok } from "../../lib/http/responses";
import { composeOperatorStores } from "../../lib/store/compositionRoot";

composeOperatorStores();

/** Who the session cookie is from (checked as every request's session is), and whether the console may sign in with the provider. */
export const handler = endpoint(consoleSession, async ({ event }) => {
  const config = settings();
  const token = sessionToken(event);
  let user: string | null = null;
  if (config.oidc && token?.startsWith(TOKEN_PREFIX)) {
    user = (await tokenCaller(config, await configuredUsers(config), token, new Date()))?.name ?? null;
  }
  return ok({ user, provider: config.consoleSignIn !== undefined });
});
