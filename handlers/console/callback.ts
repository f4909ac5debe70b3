import { finishSignIn } from "../../lib/auth/consoleSignIn";
import { providerKeys, verifyJwt } from "../../lib/auth/oidc";
import { settings } from "../../lib/config/settings";
import { NotFoundError } from "../../lib/errors";
import { requestBaseUrl } from "../../lib/http/baseUrl";
import { consoleCallback } from "../../lib/http/console/routes";
import { endpoint } from "../../lib/http/endpoint";
import { redirect } from "../../lib/http/responses";

/** The provider's code exchanged for the session cookie (the token checked as the API checks it), then back to the console. */
export const handler = endpoint(consoleCallback, async ({ event }) => {
  const { oidc, consoleSignIn: console, publicBaseUrl } = settings();
  if (!oidc || !console) throw new NotFoundError("The console signs in with no identity provider here (OIDC_CONSOLE_CLIENT is unset)");
  const root = requestBaseUrl(event, "/console/", publicBaseUrl);
  const now = new Date();
  const { setCookies } = await finishSignIn(
    oidc,
    console,
    `${root}/console/callback${event.rawQueryString ? `?${event.rawQueryString}` : ""}`,
    event.cookies,
    async (token) => verifyJwt(oidc, await providerKeys(oidc), token, now),
    now,
  );
  return { ...redirect(302, `${new URL(root).pathname.replace(/\/$/, "")}/console`), cookies: setCookies };
});
