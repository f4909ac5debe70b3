import * as check from "../schemas/validators.generated";
import type { Endpoint } from "./endpoint";

/**
 * The provisioning service's discovery routes (RackHD 1.1): the microkernel's southbound protocol,
 * catalogs, SKUs, tags, lookups and the DHCP whitelist. Entries as in provisioning.ts.
 */

// Southbound: the discovery microkernel.

export const microkernelBootstrap = {
  function: "microkernelBootstrap",
  method: "GET",
  path: "/api/{version}/tasks/bootstrap.js",
  handler: "handlers/provisioning/discovery/bootstrap",
  service: "provisioning",
  auth: "boot",
  access: "provisioningRead",
  summary:
    'The microkernel\'s loop for the node with `?macAddress=` (a script for `node`); 404 `{"error":"Not Found"}` for a MAC no node has',
  request: { params: check.VersionParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "MicrokernelScript", 400: "RackhdError", 404: "PlainNotFound" },
} as const satisfies Endpoint;

export const microkernelCommands = {
  function: "microkernelCommands",
  method: "GET",
  path: "/api/{version}/tasks/{identifier}",
  handler: "handlers/provisioning/discovery/commands",
  service: "provisioning",
  auth: "boot",
  access: "provisioningWrite",
  summary: "The commands the node's microkernel is to run now; 204 when none (the first request ends the microkernel's bootstrap)",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "CommandSet", 204: "NoContent", 403: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const microkernelResults = {
  function: "microkernelResults",
  method: "POST",
  path: "/api/{version}/tasks/{identifier}",
  handler: "handlers/provisioning/discovery/results",
  service: "provisioning",
  auth: "boot",
  access: "provisioningWrite",
  summary: "The results of the commands handed out: they become catalogs and end the task; 201 with no body (RackHD: always)",
  request: { params: check.NodeParams, query: check.Query, body: check.CommandResultsBody },
  responses: { 401: "RackhdError", 201: "NoContent", 400: "RackhdError", 403: "RackhdError", 413: "RackhdError" },
} as const satisfies Endpoint;

// Northbound: catalogs.

export const listCatalogs = {
  function: "listCatalogs",
  method: "GET",
  path: "/api/{version}/catalogs",
  handler: "handlers/provisioning/catalogs/list",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "Every catalog in creation order; equality filters (`?source=dmi`, `?node=<id>`)",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "CatalogList", 400: "RackhdError", 401: "RackhdError" },
} as const satisfies Endpoint;

export const getCatalog = {
  function: "getCatalog",
  method: "GET",
  path: "/api/{version}/catalogs/{id}",
  handler: "handlers/provisioning/catalogs/get",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "One catalog by id",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "Catalog", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const listNodeCatalogs = {
  function: "listNodeCatalogs",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/catalogs",
  handler: "handlers/provisioning/catalogs/listForNode",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "Every catalog of the node, every version, in creation order",
  paged: true,
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "CatalogList", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const getNodeCatalog = {
  function: "getNodeCatalog",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/catalogs/{source}",
  handler: "handlers/provisioning/catalogs/getForNode",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "The node's latest catalog of that source; 404 `No Catalogs Found for Source (<source>).`",
  request: { params: check.NodeSourceParams, query: check.Query },
  responses: { 200: "Catalog", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

// Northbound: SKUs.

export const listSkus = {
  function: "listSkus",
  method: "GET",
  path: "/api/{version}/skus",
  handler: "handlers/provisioning/skus/list",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "Every SKU, oldest first; equality filters on top-level fields",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "SkuList", 401: "RackhdError" },
} as const satisfies Endpoint;

export const createSku = {
  function: "createSku",
  method: "POST",
  path: "/api/{version}/skus",
  handler: "handlers/provisioning/skus/create",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary: "Define a SKU by rules on catalogs (200, as RackHD); every node is matched again before the answer",
  request: { params: check.VersionParams, query: check.Query, body: check.SkuBody },
  responses: { 200: "Sku", 400: "RackhdError", 401: "RackhdError", 413: "RackhdError" },
} as const satisfies Endpoint;

export const getSku = {
  function: "getSku",
  method: "GET",
  path: "/api/{version}/skus/{id}",
  handler: "handlers/provisioning/skus/get",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "One SKU",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "Sku", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const patchSku = {
  function: "patchSku",
  method: "PATCH",
  path: "/api/{version}/skus/{id}",
  handler: "handlers/provisioning/skus/patch",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary: "Change a SKU (404, then 400); every node is matched again",
  request: { params: check.IdParams, query: check.Query, body: check.SkuPatchBody },
  responses: { 200: "Sku", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError", 413: "RackhdError" },
} as const satisfies Endpoint;

export const deleteSku = {
  function: "deleteSku",
  method: "DELETE",
  path: "/api/{version}/skus/{id}",
  handler: "handlers/provisioning/skus/remove",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "Delete a SKU (204); its nodes are matched again",
  request: { params: check.IdParams, query: check.Query },
  responses: { 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const listSkuNodes = {
  function: "listSkuNodes",
  method: "GET",
  path: "/api/{version}/skus/{id}/nodes",
  handler: "handlers/provisioning/skus/nodes",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "The nodes of a SKU",
  paged: true,
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "NodeList", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

// Northbound: tags (RackHD era C).

export const listTags = {
  function: "listTags",
  method: "GET",
  path: "/api/{version}/tags",
  handler: "handlers/provisioning/tags/list",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "Every tag record, oldest first",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "TagList", 401: "RackhdError" },
} as const satisfies Endpoint;

export const createTag = {
  function: "createTag",
  method: "POST",
  path: "/api/{version}/tags",
  handler: "handlers/provisioning/tags/create",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary: "Define a tag by rules (201); every node whose catalogs pass them gets it; 409 for a taken name",
  request: { params: check.VersionParams, query: check.Query, body: check.TagBody },
  responses: { 201: "Tag", 400: "RackhdError", 401: "RackhdError", 409: "RackhdError" },
} as const satisfies Endpoint;

export const getTag = {
  function: "getTag",
  method: "GET",
  path: "/api/{version}/tags/{name}",
  handler: "handlers/provisioning/tags/get",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "One tag record; 404 `name <n> was not found`",
  request: { params: check.TagParams, query: check.Query },
  responses: { 200: "Tag", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const deleteTag = {
  function: "deleteTag",
  method: "DELETE",
  path: "/api/{version}/tags/{name}",
  handler: "handlers/provisioning/tags/remove",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "Delete a tag record (204); nodes keep the name, as RackHD's did",
  request: { params: check.TagParams, query: check.Query },
  responses: { 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const listTagNodes = {
  function: "listTagNodes",
  method: "GET",
  path: "/api/{version}/tags/{name}/nodes",
  handler: "handlers/provisioning/tags/nodes",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "The nodes that carry the tag (set by rules or by hand)",
  paged: true,
  request: { params: check.TagParams, query: check.Query },
  responses: { 200: "NodeList", 401: "RackhdError" },
} as const satisfies Endpoint;

export const runTagWorkflow = {
  function: "runTagWorkflow",
  method: "POST",
  path: "/api/{version}/tags/{name}/nodes/workflows",
  handler: "handlers/provisioning/tags/runWorkflow",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary:
    "Run a graph (`?name=` or `{name, options}`) on every node with the tag; 202 with the workflows started (a busy node is left out)",
  request: { params: check.TagParams, query: check.Query, body: check.StartWorkflowBody, bodyOptional: true },
  responses: { 202: "WorkflowList", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const getNodeTags = {
  function: "getNodeTags",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/tags",
  handler: "handlers/provisioning/tags/nodeTags",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "The node's tags",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "TagNames", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const addNodeTags = {
  function: "addNodeTags",
  method: "PATCH",
  path: "/api/{version}/nodes/{identifier}/tags",
  handler: "handlers/provisioning/tags/addNodeTags",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary: "Add tags to the node (a set); answers the tags sent; a body without `tags`: 204",
  request: { params: check.NodeParams, query: check.Query, body: check.NodeTagsBody },
  responses: { 200: "TagNames", 204: "NoContent", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const removeNodeTag = {
  function: "removeNodeTag",
  method: "DELETE",
  path: "/api/{version}/nodes/{identifier}/tags/{tag}",
  handler: "handlers/provisioning/tags/removeNodeTag",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "Take a tag off the node; answers the tag's name",
  request: { params: check.NodeTagParams, query: check.Query },
  responses: { 200: "TagName", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

// Northbound: lookups (RackHD §2.6, era C's search) and the DHCP whitelist.

export const listLookups = {
  function: "listLookups",
  method: "GET",
  path: "/api/{version}/lookups",
  handler: "handlers/provisioning/lookups/list",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "Lookups, oldest first; `?q=` an IP (matches ipAddress), a node id (node) or a MAC in any spelling (macAddress)",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "LookupList", 401: "RackhdError" },
} as const satisfies Endpoint;

export const createLookup = {
  function: "createLookup",
  method: "POST",
  path: "/api/{version}/lookups",
  handler: "handlers/provisioning/lookups/create",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary: "Add a lookup (200, as RackHD); 400 for a MAC or IP another lookup has",
  request: { params: check.VersionParams, query: check.Query, body: check.LookupBody },
  responses: { 200: "Lookup", 400: "RackhdError", 401: "RackhdError" },
} as const satisfies Endpoint;

export const getLookup = {
  function: "getLookup",
  method: "GET",
  path: "/api/{version}/lookups/{id}",
  handler: "handlers/provisioning/lookups/get",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "One lookup by its id",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "Lookup", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const patchLookup = {
  function: "patchLookup",
  method: "PATCH",
  path: "/api/{version}/lookups/{id}",
  handler: "handlers/provisioning/lookups/patch",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary: "Change a lookup (404, then 400)",
  request: { params: check.IdParams, query: check.Query, body: check.LookupPatchBody },
  responses: { 200: "Lookup", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const deleteLookup = {
  function: "deleteLookup",
  method: "DELETE",
  path: "/api/{version}/lookups/{id}",
  handler: "handlers/provisioning/lookups/remove",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "Delete a lookup; answers it (200)",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "Lookup", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const addToWhitelist = {
  function: "addToWhitelist",
  method: "POST",
  path: "/api/{version}/nodes/{identifier}/dhcp/whitelist",
  handler: "handlers/provisioning/lookups/whitelistAdd",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "Put a MAC on the DHCP whitelist (no body); 201 with the whole list, MACs with `-`",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 201: "Whitelist", 400: "RackhdError", 401: "RackhdError" },
} as const satisfies Endpoint;

export const removeFromWhitelist = {
  function: "removeFromWhitelist",
  method: "DELETE",
  path: "/api/{version}/nodes/{identifier}/dhcp/whitelist",
  handler: "handlers/provisioning/lookups/whitelistRemove",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "Take a MAC off the DHCP whitelist; 204, also when it was not on it",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 204: "NoContent", 400: "RackhdError", 401: "RackhdError" },
} as const satisfies Endpoint;
