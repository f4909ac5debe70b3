import { NO_DATA } from "../../../dataAccess";
import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/**
 * RackHD 2.0's `/users` (on-http's users API; issue 55), read-only: the Basic users (AUTH_USERS or
 * its SSM parameter) with RackHD's role names and their grants. Users are this deployment's
 * configuration, not records: POST, PATCH and DELETE get the catch-all's 405 with `Allow: GET`
 * (docs/team.md). A viewer of every site may read them (names and roles, never a password).
 */
export const listUsers = /* @__PURE__ */ provisioningRoute({
  function: "listUsers",
  method: "GET",
  path: "/api/{version}/users",
  handler: "handlers/provisioning/users/list",
  data: NO_DATA,
  summary: "RackHD 2.0's users: each Basic user's name, RackHD role (Administrator, Operator, ReadOnly) and grants",
  request: { params: check.UsersParams, query: check.Query },
  responses: { 200: "RackhdUserList", 401: "RackhdError", 403: "RackhdError" },
});

export const getUser = /* @__PURE__ */ provisioningRoute({
  function: "getUser",
  method: "GET",
  path: "/api/{version}/users/{name}",
  handler: "handlers/provisioning/users/get",
  data: NO_DATA,
  summary: "One of RackHD 2.0's users: its name, RackHD role and grants; 404 for a name AUTH_USERS has not",
  request: { params: check.UserParams, query: check.Query },
  responses: { 200: "RackhdUser", 401: "RackhdError", 403: "RackhdError", 404: "RackhdError" },
});
