import { endSession } from "../../lib/auth/sessionCookie";
import { settings } from "../../lib/config/settings";
import { requestBaseUrl } from "../../lib/http/baseUrl";
import { consoleSignOut } from "../../lib/http/console/routes";
import { endpoint } from "../../lib/http/endpoint";

/** The session cookie cleared. The provider's own session stays: signing in again may not ask for a password. */
export const handler = endpoint(consoleSignOut, async ({ event }) => {
  const root = new URL(requestBaseUrl(event, "/console/", settings().publicBaseUrl));
  return {
    statusCode: 204,
    headers: {},
    body: "",
    cookies: [endSession(root.pathname.replace(/\/$/, "") || "/", root.protocol === "https:")],
  };
});
