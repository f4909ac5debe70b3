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
