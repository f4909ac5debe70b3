import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/** Lookups (RackHD §2.6, era C's search) and the DHCP whitelist: routes (see lib/http/routes/index.ts for what an entry says). */

export const listLookups = /* @__PURE__ */ provisioningRoute({
  function: "listLookups",
  method: "GET",
  path: "/api/{version}/lookups",
  handler: "handlers/provisioning/lookups/list",
  data: { read: ["lookups"] },
  summary: "Lookups, oldest first; `?q=` an IP (matches ipAddress), a node id (node) or a MAC in any spelling (macAddress)",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "LookupList", 401: "RackhdError" },
});

export const createLookup = /* @__PURE__ */ provisioningRoute({
  function: "createLookup",
  method: "POST",
  path: "/api/{version}/lookups",
  handler: "handlers/provisioning/lookups/create",
  data: { write: ["lookups"] },
  idempotent: true,
  summary: "Add a lookup (200, as RackHD); 400 for a MAC or IP another lookup has",
  request: { params: check.VersionParams, query: check.Query, body: check.LookupBody },
  responses: { 200: "Lookup", 400: "RackhdError", 401: "RackhdError" },
});

export const getLookup = /* @__PURE__ */ provisioningRoute({
  function: "getLookup",
  method: "GET",
  path: "/api/{version}/lookups/{id}",
  handler: "handlers/provisioning/lookups/get",
  data: { read: ["lookups"] },
  summary: "One lookup by its id",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "Lookup", 401: "RackhdError", 404: "RackhdError" },
});

export const patchLookup = /* @__PURE__ */ provisioningRoute({
  function: "patchLookup",
  method: "PATCH",
  path: "/api/{version}/lookups/{id}",
  handler: "handlers/provisioning/lookups/patch",
  data: { write: ["lookups"] },
  idempotent: true,
  summary: "Change a lookup (404, then 400)",
  request: { params: check.IdParams, query: check.Query, body: check.LookupPatchBody },
  responses: { 200: "Lookup", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const deleteLookup = /* @__PURE__ */ provisioningRoute({
  function: "deleteLookup",
  method: "DELETE",
  path: "/api/{version}/lookups/{id}",
  handler: "handlers/provisioning/lookups/remove",
  data: { write: ["lookups"] },
  summary: "Delete a lookup; answers it (200)",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "Lookup", 401: "RackhdError", 404: "RackhdError" },
});

export const addToWhitelist = /* @__PURE__ */ provisioningRoute({
  function: "addToWhitelist",
  method: "POST",
  path: "/api/{version}/nodes/{identifier}/dhcp/whitelist",
  handler: "handlers/provisioning/lookups/whitelistAdd",
  data: { write: ["config"] },
  summary: "Put a MAC on the DHCP whitelist (no body); 201 with the whole list, MACs with `-`",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 201: "Whitelist", 400: "RackhdError", 401: "RackhdError" },
});

export const removeFromWhitelist = /* @__PURE__ */ provisioningRoute({
  function: "removeFromWhitelist",
  method: "DELETE",
  path: "/api/{version}/nodes/{identifier}/dhcp/whitelist",
  handler: "handlers/provisioning/lookups/whitelistRemove",
  data: { write: ["config"] },
  summary: "Take a MAC off the DHCP whitelist; 204, also when it was not on it",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 204: "NoContent", 400: "RackhdError", 401: "RackhdError" },
});
