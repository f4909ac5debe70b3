import { NO_DATA } from "../../../dataAccess";
import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/** The service's config and versions (RackHD 1.1): routes (see lib/http/routes/index.ts for what an entry says). */

export const getConfig = /* @__PURE__ */ provisioningRoute({
  function: "getConfig",
  method: "GET",
  path: "/api/{version}/config",
  handler: "handlers/provisioning/config/getConfig",
  data: { read: ["config"] },
  summary: "The service's config: the deployment's keys (RackHD's names where they apply) and those set at run time; every secret redacted",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "ServiceConfig", 401: "RackhdError" },
});

export const patchConfig = /* @__PURE__ */ provisioningRoute({
  function: "patchConfig",
  method: "PATCH",
  path: "/api/{version}/config",
  handler: "handlers/provisioning/config/patchConfig",
  data: { write: ["config"] },
  idempotent: true,
  summary: "Set top-level config keys for every container; a deployment key only to the value it has (400 otherwise: it takes a deploy)",
  request: { params: check.VersionParams, query: check.Query, body: check.ConfigPatchBody },
  responses: { 200: "ServiceConfig", 400: "RackhdError", 401: "RackhdError", 413: "RackhdError" },
});

export const getVersions = /* @__PURE__ */ provisioningRoute({
  function: "getVersions",
  scope: "any",
  method: "GET",
  path: "/api/{version}/versions",
  handler: "handlers/provisioning/config/versions",
  data: NO_DATA,
  summary: "The versions of what serves the API: this service and its runtime (RackHD listed its on-* packages)",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "VersionList", 401: "RackhdError" },
});
