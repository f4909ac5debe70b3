import { consoleRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/**
 * RackHD's `POST /login` (on-http's login router, era B/C; issue 55): a Basic user's name and
 * password for a token RackHD's clients send as `Authorization: JWT <token>` or `?auth_token=`.
 * Outside the API's path, as RackHD had it; open, since it is where credentials are given; every
 * answer is recorded in the audit trail (a sign-in), and failures count as failed sign-ins.
 */
export const login = /* @__PURE__ */ consoleRoute({
  function: "login",
  method: "POST",
  path: "/login",
  handler: "handlers/provisioning/login/create",
  data: { write: ["apiTokens", "authAttempts"] },
  signIn: true,
  summary: "RackHD's sign-in: a Basic user's name and password for a token (24 hours), sent as `Authorization: JWT <token>`",
  request: { query: check.Query, body: check.LoginBody },
  responses: { 200: "LoginToken", 400: "RackhdError", 401: "RackhdError", 429: "RackhdError", 503: "RackhdError" },
});
