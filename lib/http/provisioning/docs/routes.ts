import { NO_DATA } from "../../../dataAccess";
import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/** The contract, served: the OpenAPI document, a docs page, and RackHD's serializable schemas: routes (see lib/http/routes/index.ts for what an entry says). */

export const provisioningOpenApi = /* @__PURE__ */ provisioningRoute({
  function: "provisioningOpenApi",
  method: "GET",
  path: "/api/{version}/openapi.json",
  handler: "handlers/provisioning/docs/provisioningOpenApi",
  auth: "none",
  data: NO_DATA,
  summary: "This service's OpenAPI 3.1 document",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "OpenApiDocument" },
});

export const provisioningDocs = /* @__PURE__ */ provisioningRoute({
  function: "provisioningDocs",
  method: "GET",
  path: "/api/{version}/docs",
  handler: "handlers/provisioning/docs/provisioningDocs",
  auth: "none",
  data: NO_DATA,
  summary: "The docs page (HTML), rendered from openapi.json (RackHD served its apidoc here)",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "Html" },
});

export const provisioningDocsViewer = /* @__PURE__ */ provisioningRoute({
  function: "provisioningDocsViewer",
  method: "GET",
  path: "/api/{version}/docs/redoc.js",
  handler: "handlers/provisioning/docs/provisioningDocsViewer",
  auth: "none",
  data: NO_DATA,
  summary: "The docs page's viewer (Redoc), served here so that the page loads nothing from elsewhere",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "ViewerScript" },
});

export const schemaList = /* @__PURE__ */ provisioningRoute({
  function: "schemaList",
  scope: "any",
  method: "GET",
  path: "/api/{version}/schemas",
  handler: "handlers/provisioning/docs/schemaList",
  data: NO_DATA,
  summary: "RackHD's serializable schemas (Serializables.V1.Node, …), from the same schemas that check the bodies",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "SerializableSchemaList" },
});

export const schemaEntry = /* @__PURE__ */ provisioningRoute({
  function: "schemaEntry",
  scope: "any",
  method: "GET",
  path: "/api/{version}/schemas/{id}",
  handler: "handlers/provisioning/docs/schemaEntry",
  data: NO_DATA,
  summary: "One serializable schema; 204 for an unknown id (RackHD's answer)",
  request: { params: check.SchemaIdParams, query: check.Query },
  responses: { 200: "SerializableSchema", 204: "NoContent" },
});
