import { startSignIn } from "../../lib/auth/consoleSignIn";
import { settings } from "../../lib/config/settings";
import { NotFoundError } from "../../lib/errors";
import { requestBaseUrl } from "../../lib/http/baseUrl";
import { consoleSignIn } from "../../lib/http/console/routes";
import { endpoint } from "../../lib/http/endpoint";
import { redirect } from "../../lib/http/responses";

/** To the provider's sign-in page; the sign-in's state and PKCE verifier go to the callback in an HttpOnly cookie. */
export const handler = endpoint(consoleSignIn, async ({ event }) => {
  const { oidc, consoleSignIn: console, publicBaseUrl } = settings();
  if (!oidc || !console) throw new NotFoundError("The console signs in with no identity provider here (OIDC_CONSOLE_CLIENT is unset)");
  const started = await startSignIn(oidc, console, `${requestBaseUrl(event, "/console/", publicBaseUrl)}/console/callback`);
  const answer = redirect(302, started.location);
  return { ...answer, cookies: [started.setCookie] };
});
