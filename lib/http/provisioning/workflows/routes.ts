import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";
import { withProgress } from "../shared/dataAccess";

/** Workflows: running graphs and their state (RackHD 1.1 §4): routes (see lib/http/routes/index.ts for what an entry says). */

export const listWorkflows = /* @__PURE__ */ provisioningRoute({
  function: "listWorkflows",
  method: "GET",
  path: "/api/{version}/workflows",
  handler: "handlers/provisioning/workflows/list",
  data: /* @__PURE__ */ withProgress(),
  summary: "Every workflow, brought up to date; `?active=true|false` filters",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "WorkflowList", 401: "RackhdError" },
});

export const getWorkflow = /* @__PURE__ */ provisioningRoute({
  function: "getWorkflow",
  method: "GET",
  path: "/api/{version}/workflows/{id}",
  handler: "handlers/provisioning/workflows/get",
  data: /* @__PURE__ */ withProgress(),
  summary: "One workflow, by instanceId or record id",
  request: { params: check.WorkflowIdParams, query: check.Query },
  responses: { 200: "Workflow", 401: "RackhdError", 404: "RackhdError" },
});

export const listNodeWorkflows = /* @__PURE__ */ provisioningRoute({
  function: "listNodeWorkflows",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/workflows",
  handler: "handlers/provisioning/workflows/listForNode",
  data: /* @__PURE__ */ withProgress(),
  summary: "The node's workflows, past and active",
  paged: true,
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "WorkflowList", 401: "RackhdError", 404: "RackhdError" },
});

export const startWorkflow = /* @__PURE__ */ provisioningRoute({
  function: "startWorkflow",
  method: "POST",
  path: "/api/{version}/nodes/{identifier}/workflows",
  handler: "handlers/provisioning/workflows/start",
  data: /* @__PURE__ */ withProgress(),
  idempotent: true,
  summary: "Run a graph on the node: `{name, options}` or `?name=`",
  request: { params: check.NodeParams, query: check.Query, body: check.StartWorkflowBody, bodyOptional: true },
  responses: { 201: "Workflow", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const getActiveWorkflow = /* @__PURE__ */ provisioningRoute({
  function: "getActiveWorkflow",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/workflows/active",
  handler: "handlers/provisioning/workflows/getActive",
  data: /* @__PURE__ */ withProgress(),
  summary: "The node's active workflow; 204 when none",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "Workflow", 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
});

export const cancelActiveWorkflow = /* @__PURE__ */ provisioningRoute({
  function: "cancelActiveWorkflow",
  method: "DELETE",
  path: "/api/{version}/nodes/{identifier}/workflows/active",
  handler: "handlers/provisioning/workflows/cancelActive",
  data: /* @__PURE__ */ withProgress(),
  summary: "Cancel the node's active workflow; 404 when none",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "Workflow", 401: "RackhdError", 404: "RackhdError" },
});
