import { consoleProvider, startSignIn } from "../../lib/auth/consoleSignIn";
import { settings } from "../../lib/config/settings";
import { requestBaseUrl } from "../../lib/http/baseUrl";
import { consoleSignIn } from "../../lib/http/console/routes";
import { endpoint } from "../../lib/http/endpoint";
import { redirect } from "../../lib/http/responses";

/** To the provider's sign-in page; the sign-in's state and PKCE verifier go to the callback in an HttpOnly cookie. */
export const handler = endpoint(consoleSignIn, async ({ event }) => {
  const config = settings();
  const { oidc, console } = consoleProvider(config);
  const { publicBaseUrl } = config;
  const started = await startSignIn(oidc, console, `${requestBaseUrl(event, "/console/", publicBaseUrl)}/console/callback`);
  const answer = redirect(302, started.location);
  return { ...answer, cookies: [started.setCookie] };
});
