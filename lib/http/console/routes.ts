import { consoleRoute } from "../routes/entryBuilders";
import * as check from "../schemas/validators.generated";

/**
 * The operator console: a page and its assets, served by the service itself (nothing from a
 * CDN). The page holds no data and no rules: the browser calls the public APIs, with their auth,
 * so the page itself asks for none. Not in either API's OpenAPI document.
 */

export const consolePage = /* @__PURE__ */ consoleRoute({
  function: "consolePage",
  method: "GET",
  path: "/console",
  handler: "handlers/console/page",
  summary: "The operator console: machines, workflows live, actions, tasks (a page that calls the public APIs)",
  request: { query: check.Query },
  responses: { 200: "Html" },
});

export const consoleAsset = /* @__PURE__ */ consoleRoute({
  function: "consoleAsset",
  method: "GET",
  path: "/console/assets/{name}",
  handler: "handlers/console/asset",
  summary: "The console's script and stylesheet, named by their content's hash (cached for a year)",
  request: { params: check.ConsoleAssetParams, query: check.Query },
  responses: { 200: "ConsoleAsset", 404: "ConsoleNotFound" },
});

/** RackHD served its API docs at /docs as well as under the API path (on-http's http-service). */
export const rackhdDocs = /* @__PURE__ */ consoleRoute({
  function: "rackhdDocs",
  method: "GET",
  path: "/docs",
  handler: "handlers/console/rackhdDocs",
  summary: "RackHD's docs address: 302 to the provisioning API's docs page (/api/1.1/docs)",
  request: { query: check.Query },
  responses: { 302: "PageRedirect" },
});

// The console's sign-in with the identity provider (issue 55, docs/team.md): the authorization code
// flow with PKCE, its session an HttpOnly cookie that the page's scripts cannot read.

export const consoleSignIn = /* @__PURE__ */ consoleRoute({
  function: "consoleSignIn",
  method: "GET",
  path: "/console/signin",
  handler: "handlers/console/signIn",
  summary: "302 to the identity provider's sign-in page (authorization code flow with PKCE); 404 when OIDC_CONSOLE_CLIENT is unset",
  request: { query: check.Query },
  responses: { 302: "PageRedirect", 404: "ConsoleNotFound", 503: "ConsoleNotFound" },
});

export const consoleCallback = /* @__PURE__ */ consoleRoute({
  function: "consoleCallback",
  method: "GET",
  path: "/console/callback",
  handler: "handlers/console/callback",
  signIn: true,
  data: { write: ["apiTokens"] },
  summary: "Where the provider sends the browser back: the code exchanged for the session cookie, then 302 to the console",
  request: { query: check.Query },
  responses: { 302: "PageRedirect", 400: "ConsoleNotFound", 404: "ConsoleNotFound", 503: "ConsoleNotFound" },
});

export const consoleSession = /* @__PURE__ */ consoleRoute({
  function: "consoleSession",
  method: "GET",
  path: "/console/session",
  handler: "handlers/console/session",
  data: { write: ["apiTokens"] },
  summary: "Who the console's session is, and whether it can sign in with the provider",
  request: { query: check.Query },
  responses: { 200: "ConsoleSession", 503: "ConsoleNotFound" },
});

export const consoleSignOut = /* @__PURE__ */ consoleRoute({
  function: "consoleSignOut",
  method: "POST",
  path: "/console/signout",
  handler: "handlers/console/signOut",
  data: { write: ["apiTokens"] },
  summary: "Ends the console's session: its token revoked, its cookie cleared",
  request: { query: check.Query },
  responses: { 204: "NoContent" },
});
