import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";
import { withProgress } from "../shared/dataAccess";

/** Tags (RackHD era C): names for nodes by rules: routes (see lib/http/routes/index.ts for what an entry says). */

export const listTags = /* @__PURE__ */ provisioningRoute({
  function: "listTags",
  scope: "any",
  method: "GET",
  path: "/api/{version}/tags",
  handler: "handlers/provisioning/tags/list",
  data: { read: ["tags"] },
  summary: "Every tag record, oldest first",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "TagList", 401: "RackhdError" },
});

export const createTag = /* @__PURE__ */ provisioningRoute({
  function: "createTag",
  method: "POST",
  path: "/api/{version}/tags",
  handler: "handlers/provisioning/tags/create",
  data: { read: ["catalogs"], write: ["nodes", "tags"] },
  idempotent: true,
  summary: "Define a tag by rules (201); every node whose catalogs pass them gets it; 409 for a taken name",
  request: { params: check.VersionParams, query: check.Query, body: check.TagBody },
  responses: { 201: "Tag", 400: "RackhdError", 401: "RackhdError", 409: "RackhdError" },
});

export const getTag = /* @__PURE__ */ provisioningRoute({
  function: "getTag",
  scope: "any",
  method: "GET",
  path: "/api/{version}/tags/{name}",
  handler: "handlers/provisioning/tags/get",
  data: { read: ["tags"] },
  summary: "One tag record; 404 `name <n> was not found`",
  request: { params: check.TagParams, query: check.Query },
  responses: { 200: "Tag", 401: "RackhdError", 404: "RackhdError" },
});

export const deleteTag = /* @__PURE__ */ provisioningRoute({
  function: "deleteTag",
  method: "DELETE",
  path: "/api/{version}/tags/{name}",
  handler: "handlers/provisioning/tags/remove",
  data: { write: ["tags"] },
  summary: "Delete a tag record (204); nodes keep the name, as RackHD's did",
  request: { params: check.TagParams, query: check.Query },
  responses: { 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
});

export const listTagNodes = /* @__PURE__ */ provisioningRoute({
  function: "listTagNodes",
  scope: "node",
  method: "GET",
  path: "/api/{version}/tags/{name}/nodes",
  handler: "handlers/provisioning/tags/nodes",
  data: { read: ["nodes"] },
  summary: "The nodes that carry the tag (set by rules or by hand)",
  paged: true,
  request: { params: check.TagParams, query: check.Query },
  responses: { 200: "NodeList", 401: "RackhdError" },
});

export const runTagWorkflow = /* @__PURE__ */ provisioningRoute({
  function: "runTagWorkflow",
  permission: "operate",
  method: "POST",
  path: "/api/{version}/tags/{name}/nodes/workflows",
  handler: "handlers/provisioning/tags/runWorkflow",
  data: /* @__PURE__ */ withProgress(),
  summary:
    "Run a graph (`?name=` or `{name, options}`) on every node with the tag; 202 with the workflows started (a busy node is left out)",
  request: { params: check.TagParams, query: check.Query, body: check.StartWorkflowBody, bodyOptional: true },
  responses: { 202: "WorkflowList", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const getNodeTags = /* @__PURE__ */ provisioningRoute({
  function: "getNodeTags",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/tags",
  handler: "handlers/provisioning/tags/nodeTags",
  data: { read: ["nodes"] },
  summary: "The node's tags",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "TagNames", 401: "RackhdError", 404: "RackhdError" },
});

export const addNodeTags = /* @__PURE__ */ provisioningRoute({
  function: "addNodeTags",
  method: "PATCH",
  path: "/api/{version}/nodes/{identifier}/tags",
  handler: "handlers/provisioning/tags/addNodeTags",
  data: { write: ["nodes"] },
  idempotent: true,
  summary: "Add tags to the node (a set); answers the tags sent; a body without `tags`: 204",
  request: { params: check.NodeParams, query: check.Query, body: check.NodeTagsBody },
  responses: { 200: "TagNames", 204: "NoContent", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const removeNodeTag = /* @__PURE__ */ provisioningRoute({
  function: "removeNodeTag",
  method: "DELETE",
  path: "/api/{version}/nodes/{identifier}/tags/{tag}",
  handler: "handlers/provisioning/tags/removeNodeTag",
  data: { write: ["nodes"] },
  summary: "Take a tag off the node; answers the tag's name",
  request: { params: check.NodeTagParams, query: check.Query },
  responses: { 200: "TagName", 401: "RackhdError", 404: "RackhdError" },
});
