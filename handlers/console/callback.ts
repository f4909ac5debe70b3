import { apiTokenStore, consoleSessionToken, noteSignIn } from "../../lib/auth/apiTokens";
import { consoleProvider, finishSignIn } from "../../lib/auth/consoleSignIn";
import { callerOfClaims, providerKeys, verifyJwt } from "../../lib/auth/oidc";
import { settings } from "../../lib/config/settings";
import { requestBaseUrl } from "../../lib/http/baseUrl";
import { consoleCallback } from "../../lib/http/console/routes";
import { endpoint } from "../../lib/http/endpoint";
import { setCaller } from "../../lib/http/principal";
import { redirect } from "../../lib/http/responses";
import { composeOperatorStores } from "../../lib/store/compositionRoot";

// Its sessions are tokens, and its sign-ins go to the audit trail.
composeOperatorStores();

/** The provider's code exchanged for a session of the service's (the provider's token checked as the API checks it), then back to the console. */
export const handler = endpoint(consoleCallback, async ({ event }) => {
  const config = settings();
  const { oidc, console } = consoleProvider(config);
  const { publicBaseUrl, authRoles } = config;
  const root = requestBaseUrl(event, "/console/", publicBaseUrl);
  const now = new Date();
  const { setCookies } = await finishSignIn(
    oidc,
    console,
    `${root}/console/callback${event.rawQueryString ? `?${event.rawQueryString}` : ""}`,
    event.cookies,
    async (token) => verifyJwt(oidc, await providerKeys(oidc), token, now),
    async (signedIn, expires) => {
      const caller = callerOfClaims(oidc, authRoles, signedIn);
      // The sign-in goes to the audit trail under the user's name (the route records each of its answers).
      setCaller(event, caller);
      await noteSignIn(apiTokenStore(), caller, now);
      return consoleSessionToken(apiTokenStore(), caller, expires, now);
    },
    now,
  );
  return { ...redirect(302, `${new URL(root).pathname.replace(/\/$/, "")}/console`), cookies: setCookies };
});
