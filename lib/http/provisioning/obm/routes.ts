import { NO_DATA } from "../../../dataAccess";
import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/** OBM settings, the OBM library and the identify light (RackHD 1.1): routes (see lib/http/routes/index.ts for what an entry says). */

export const getNodeObm = /* @__PURE__ */ provisioningRoute({
  function: "getNodeObm",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/obm",
  handler: "handlers/provisioning/obm/getNodeObm",
  data: { read: ["nodes"] },
  summary: "The node's OBM settings (`[{service, config}]`), secrets redacted",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "ObmSettingList", 401: "RackhdError", 404: "RackhdError" },
});

export const setNodeObm = /* @__PURE__ */ provisioningRoute({
  function: "setNodeObm",
  method: "POST",
  path: "/api/{version}/nodes/{identifier}/obm",
  handler: "handlers/provisioning/obm/setNodeObm",
  data: { write: ["nodes"] },
  idempotent: true,
  summary:
    "Add OBM settings (one or an array), upsert per service; 404, then 400 (bad body, unknown service, service the node type does not support)",
  request: { params: check.NodeParams, query: check.Query, body: check.ObmSettingsBody },
  responses: { 201: "Node", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const obmLibrary = /* @__PURE__ */ provisioningRoute({
  function: "obmLibrary",
  scope: "any",
  method: "GET",
  path: "/api/{version}/obms/library",
  handler: "handlers/provisioning/obm/library",
  data: NO_DATA,
  summary: "The OBM services known, with their config fields",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "ObmServiceList", 401: "RackhdError" },
});

export const obmLibraryEntry = /* @__PURE__ */ provisioningRoute({
  function: "obmLibraryEntry",
  scope: "any",
  method: "GET",
  path: "/api/{version}/obms/library/{service}",
  handler: "handlers/provisioning/obm/libraryEntry",
  data: NO_DATA,
  summary: "One OBM service",
  request: { params: check.ObmServiceParams, query: check.Query },
  responses: { 200: "ObmService", 401: "RackhdError", 404: "RackhdError" },
});

export const getNodeIdentify = /* @__PURE__ */ provisioningRoute({
  function: "getNodeIdentify",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/obm/identify",
  handler: "handlers/provisioning/obm/getIdentify",
  data: { read: ["nodes"] },
  summary: "What the chassis identify light was last set to (RackHD routed only the POST)",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "IdentifyState", 401: "RackhdError", 404: "RackhdError" },
});

export const setNodeIdentify = /* @__PURE__ */ provisioningRoute({
  function: "setNodeIdentify",
  method: "POST",
  path: "/api/{version}/nodes/{identifier}/obm/identify",
  handler: "handlers/provisioning/obm/setIdentify",
  data: { write: ["nodes", "relayJobs"] },
  summary:
    'Turn the chassis identify light on (`{"value": true}`) or off through the node\'s OBM service; 422 for a service this function cannot drive',
  request: { params: check.NodeParams, query: check.Query, body: check.IdentifyBody, bodyOptional: true },
  responses: { 200: "IdentifyState", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError", 422: "RackhdError" },
});
