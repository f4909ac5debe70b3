import { apiTokenStore, endToken } from "../../lib/auth/apiTokens";
import { endSession, sessionToken } from "../../lib/auth/sessionCookie";
import { settings } from "../../lib/config/settings";
import { requestBaseUrl } from "../../lib/http/baseUrl";
import { consoleSignOut } from "../../lib/http/console/routes";
import { endpoint } from "../../lib/http/endpoint";
import { composeOperatorStores } from "../../lib/store/compositionRoot";

composeOperatorStores();

/**
 * The session ended (its token revoked: the cookie's value is worth nothing from now on, wherever
 * it was copied) and its cookie cleared. The provider's own session stays: signing in again may
 * not ask for a password.
 */
export const handler = endpoint(consoleSignOut, async ({ event }) => {
  const token = sessionToken(event);
  if (token) await endToken(apiTokenStore(), token);
  const root = new URL(requestBaseUrl(event, "/console/", settings().publicBaseUrl));
  return {
    statusCode: 204,
    headers: {},
    body: "",
    cookies: [endSession(root.pathname.replace(/\/$/, "") || "/", root.protocol === "https:")],
  };
});
