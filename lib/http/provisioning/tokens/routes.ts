import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/**
 * API tokens for automation (issue 55; this service's own): each caller makes and revokes their
 * own (an admin of every site, anyone's); a token's grant is never wider than its maker's. Any
 * signed-in role may, so the policy asks for `view` on no site (`any`); the domain decides whose.
 */

export const createToken = /* @__PURE__ */ provisioningRoute({
  function: "createToken",
  method: "POST",
  path: "/api/{version}/tokens",
  handler: "handlers/provisioning/tokens/create",
  permission: "view",
  scope: "any",
  data: { write: ["apiTokens"] },
  summary: "Make an API token for yourself (a name, a role within yours, an expiry): the token is in this answer only, and kept as a hash",
  request: { params: check.VersionParams, query: check.Query, body: check.TokenBody },
  responses: { 201: "ApiTokenWithSecret", 400: "RackhdError", 401: "RackhdError" },
});

export const listTokens = /* @__PURE__ */ provisioningRoute({
  function: "listTokens",
  method: "GET",
  path: "/api/{version}/tokens",
  handler: "handlers/provisioning/tokens/list",
  scope: "any",
  data: { read: ["apiTokens"] },
  summary: "Your API tokens (every one, for an admin of every site), with their last use; never a secret",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "ApiTokenList", 401: "RackhdError" },
});

export const revokeToken = /* @__PURE__ */ provisioningRoute({
  function: "revokeToken",
  method: "DELETE",
  path: "/api/{version}/tokens/{id}",
  handler: "handlers/provisioning/tokens/revoke",
  permission: "view",
  scope: "any",
  data: { write: ["apiTokens"] },
  summary: "Revoke one of your API tokens (anyone's, for an admin of every site): its next request is a 401",
  request: { params: check.TokenParams, query: check.Query },
  responses: { 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
});
