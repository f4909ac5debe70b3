import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/** Catalogs: what discovery found (RackHD 1.1 §2.3): routes (see lib/http/routes/index.ts for what an entry says). */

export const listCatalogs = /* @__PURE__ */ provisioningRoute({
  function: "listCatalogs",
  method: "GET",
  path: "/api/{version}/catalogs",
  handler: "handlers/provisioning/catalogs/list",
  data: { read: ["catalogs"] },
  summary: "Every catalog in creation order; equality filters (`?source=dmi`, `?node=<id>`)",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "CatalogList", 400: "RackhdError", 401: "RackhdError" },
});

export const getCatalog = /* @__PURE__ */ provisioningRoute({
  function: "getCatalog",
  method: "GET",
  path: "/api/{version}/catalogs/{id}",
  handler: "handlers/provisioning/catalogs/get",
  data: { read: ["catalogs"] },
  summary: "One catalog by id",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "Catalog", 401: "RackhdError", 404: "RackhdError" },
});

export const listNodeCatalogs = /* @__PURE__ */ provisioningRoute({
  function: "listNodeCatalogs",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/catalogs",
  handler: "handlers/provisioning/catalogs/listForNode",
  data: { read: ["catalogs", "nodes"] },
  summary: "Every catalog of the node, every version, in creation order",
  paged: true,
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "CatalogList", 401: "RackhdError", 404: "RackhdError" },
});

export const getNodeCatalog = /* @__PURE__ */ provisioningRoute({
  function: "getNodeCatalog",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/catalogs/{source}",
  handler: "handlers/provisioning/catalogs/getForNode",
  data: { read: ["catalogs", "nodes"] },
  summary: "The node's latest catalog of that source; 404 `No Catalogs Found for Source (<source>).`",
  request: { params: check.NodeSourceParams, query: check.Query },
  responses: { 200: "Catalog", 401: "RackhdError", 404: "RackhdError" },
});
