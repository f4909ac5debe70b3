import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/** SKUs: classes of nodes by their catalogs (RackHD 1.1 §2.4): routes (see lib/http/routes/index.ts for what an entry says). */

export const listSkus = /* @__PURE__ */ provisioningRoute({
  function: "listSkus",
  scope: "any",
  method: "GET",
  path: "/api/{version}/skus",
  handler: "handlers/provisioning/skus/list",
  data: { read: ["skus"] },
  summary: "Every SKU, oldest first; equality filters on top-level fields",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "SkuList", 401: "RackhdError" },
});

export const createSku = /* @__PURE__ */ provisioningRoute({
  function: "createSku",
  method: "POST",
  path: "/api/{version}/skus",
  handler: "handlers/provisioning/skus/create",
  data: { read: ["catalogs"], write: ["nodes", "skus"] },
  idempotent: true,
  summary: "Define a SKU by rules on catalogs (200, as RackHD); every node is matched again before the answer",
  request: { params: check.VersionParams, query: check.Query, body: check.SkuBody },
  responses: { 200: "Sku", 400: "RackhdError", 401: "RackhdError", 413: "RackhdError" },
});

export const getSku = /* @__PURE__ */ provisioningRoute({
  function: "getSku",
  scope: "any",
  method: "GET",
  path: "/api/{version}/skus/{id}",
  handler: "handlers/provisioning/skus/get",
  data: { read: ["skus"] },
  summary: "One SKU",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "Sku", 401: "RackhdError", 404: "RackhdError" },
});

export const patchSku = /* @__PURE__ */ provisioningRoute({
  function: "patchSku",
  method: "PATCH",
  path: "/api/{version}/skus/{id}",
  handler: "handlers/provisioning/skus/patch",
  data: { read: ["catalogs"], write: ["nodes", "skus"] },
  idempotent: true,
  summary: "Change a SKU (404, then 400); every node is matched again",
  request: { params: check.IdParams, query: check.Query, body: check.SkuPatchBody },
  responses: { 200: "Sku", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError", 413: "RackhdError" },
});

export const deleteSku = /* @__PURE__ */ provisioningRoute({
  function: "deleteSku",
  method: "DELETE",
  path: "/api/{version}/skus/{id}",
  handler: "handlers/provisioning/skus/remove",
  data: { read: ["catalogs"], write: ["nodes", "skus"] },
  summary: "Delete a SKU (204); its nodes are matched again",
  request: { params: check.IdParams, query: check.Query },
  responses: { 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
});

export const listSkuNodes = /* @__PURE__ */ provisioningRoute({
  function: "listSkuNodes",
  scope: "node",
  method: "GET",
  path: "/api/{version}/skus/{id}/nodes",
  handler: "handlers/provisioning/skus/nodes",
  data: { read: ["nodes", "skus"] },
  summary: "The nodes of a SKU",
  paged: true,
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "NodeList", 401: "RackhdError", 404: "RackhdError" },
});
