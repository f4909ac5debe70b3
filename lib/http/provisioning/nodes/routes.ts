import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";
import { withProgress } from "../shared/dataAccess";

/** Nodes and their SSH settings (RackHD 1.1 §2.1): routes (see lib/http/routes/index.ts for what an entry says). */

export const listNodes = /* @__PURE__ */ provisioningRoute({
  function: "listNodes",
  scope: "node",
  method: "GET",
  path: "/api/{version}/nodes",
  handler: "handlers/provisioning/nodes/list",
  data: { read: ["nodes"] },
  summary: "Every node in creation order; equality filters on top-level fields (`?type=compute`, `?identifiers=<mac>`)",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "NodeList", 400: "RackhdError", 401: "RackhdError" },
});

export const createNode = /* @__PURE__ */ provisioningRoute({
  function: "createNode",
  permission: "operate",
  method: "POST",
  path: "/api/{version}/nodes",
  handler: "handlers/provisioning/nodes/create",
  data: { write: ["nodes"] },
  idempotent: true,
  summary:
    "Create a node: `name` required; a client-supplied unused 24-hex `id` and extra keys are kept; 409 for an identifier another node has",
  request: { params: check.VersionParams, query: check.Query, body: check.NewNodeBody },
  responses: { 201: "Node", 400: "RackhdError", 401: "RackhdError", 409: "RackhdError" },
});

export const getNode = /* @__PURE__ */ provisioningRoute({
  function: "getNode",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}",
  handler: "handlers/provisioning/nodes/get",
  data: { read: ["nodes"] },
  summary: "One node, by id or by one of its MACs (any spelling)",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "Node", 401: "RackhdError", 404: "RackhdError" },
});

export const patchNode = /* @__PURE__ */ provisioningRoute({
  function: "patchNode",
  method: "PATCH",
  path: "/api/{version}/nodes/{identifier}",
  handler: "handlers/provisioning/nodes/patch",
  data: { write: ["nodes"] },
  idempotent: true,
  summary: "Change a node (404, then 400); a whole node echoed back is accepted",
  request: { params: check.NodeParams, query: check.Query, body: check.NodePatchBody },
  responses: { 200: "Node", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError", 409: "RackhdError" },
});

export const deleteNode = /* @__PURE__ */ provisioningRoute({
  function: "deleteNode",
  method: "DELETE",
  path: "/api/{version}/nodes/{identifier}",
  handler: "handlers/provisioning/nodes/remove",
  data: /* @__PURE__ */ withProgress({ write: ["addresses", "catalogs", "installReports", "instances", "lookups", "pollerSamples"] }),
  summary: "Delete a node and answer it; 409 while a workflow is active",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "Node", 401: "RackhdError", 404: "RackhdError", 409: "RackhdError" },
});

export const getNodeSsh = /* @__PURE__ */ provisioningRoute({
  function: "getNodeSsh",
  permission: "operate" /* what it answers may hold a secret */,
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/ssh",
  handler: "handlers/provisioning/nodes/getSsh",
  data: { read: ["nodes"] },
  summary: "The node's SSH settings, password and private key redacted; 204 when it has none (RackHD era C)",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "SshSettings", 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
});

export const setNodeSsh = /* @__PURE__ */ provisioningRoute({
  function: "setNodeSsh",
  method: "POST",
  path: "/api/{version}/nodes/{identifier}/ssh",
  handler: "handlers/provisioning/nodes/setSsh",
  data: { write: ["nodes"] },
  idempotent: true,
  summary:
    "Set the node's SSH settings (`host`, `user`, and `password` or `privateKey`); 201 with the node, secrets redacted; 400 `Invalid SSH body`",
  request: { params: check.NodeParams, query: check.Query, body: check.SshBody },
  responses: { 201: "Node", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const listProvisionActions = /* @__PURE__ */ provisioningRoute({
  function: "listProvisionActions",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/actions",
  handler: "handlers/provisioning/nodes/listProvisionActions",
  data: { read: ["nodes"] },
  summary: "The node's provision state and its life-cycle actions, each with whether it may run now (docs/lifecycle.md)",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "ProvisionActionList", 401: "RackhdError", 404: "RackhdError" },
});

export const runProvisionAction = /* @__PURE__ */ provisioningRoute({
  function: "runProvisionAction",
  method: "POST",
  path: "/api/{version}/nodes/{identifier}/actions",
  handler: "handlers/provisioning/nodes/runProvisionAction",
  data: /* @__PURE__ */ withProgress({ read: ["subnets"], write: ["addresses", "instances", "lookups"] }),
  idempotent: true,
  summary:
    "Run a life-cycle action (`provide`, `allocate`, `deallocate`, `deploy`, `redeploy`, `release`, `rescue`, `unrescue`, `retire`): 202 with the node in its transitional state and the workflow that carries it out; 409 when the node's state does not allow it (naming both) or a workflow runs on it",
  request: { params: check.NodeParams, query: check.Query, body: check.ProvisionActionBody },
  responses: { 202: "ProvisionActionResult", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError", 409: "RackhdError" },
});
