import * as check from "../schemas/validators.generated";
import type { Endpoint } from "./endpoint";

/**
 * The provisioning service (RackHD 1.1), under /api/{1.1|current|common}. Northbound routes are
 * for operators (behind PROVISIONING_AUTH); southbound ones for booting machines (never behind
 * auth). Entries are object literals without spreads, so a bundle keeps only its own.
 */

// Northbound: nodes.

export const listNodes = {
  function: "listNodes",
  method: "GET",
  path: "/api/{version}/nodes",
  handler: "handlers/provisioning/nodes/list",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "Every node in creation order; equality filters on top-level fields (`?type=compute`, `?identifiers=<mac>`)",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "NodeList", 400: "RackhdError", 401: "RackhdError" },
} as const satisfies Endpoint;

export const createNode = {
  function: "createNode",
  method: "POST",
  path: "/api/{version}/nodes",
  handler: "handlers/provisioning/nodes/create",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary:
    "Create a node: `name` required; a client-supplied unused 24-hex `id` and extra keys are kept; 409 for an identifier another node has",
  request: { params: check.VersionParams, query: check.Query, body: check.NewNodeBody },
  responses: { 201: "Node", 400: "RackhdError", 401: "RackhdError", 409: "RackhdError" },
} as const satisfies Endpoint;

export const getNode = {
  function: "getNode",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}",
  handler: "handlers/provisioning/nodes/get",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "One node, by id or by one of its MACs (any spelling)",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "Node", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const patchNode = {
  function: "patchNode",
  method: "PATCH",
  path: "/api/{version}/nodes/{identifier}",
  handler: "handlers/provisioning/nodes/patch",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary: "Change a node (404, then 400); a whole node echoed back is accepted",
  request: { params: check.NodeParams, query: check.Query, body: check.NodePatchBody },
  responses: { 200: "Node", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError", 409: "RackhdError" },
} as const satisfies Endpoint;

export const deleteNode = {
  function: "deleteNode",
  method: "DELETE",
  path: "/api/{version}/nodes/{identifier}",
  handler: "handlers/provisioning/nodes/remove",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "Delete a node and answer it; 409 while a workflow is active",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "Node", 401: "RackhdError", 404: "RackhdError", 409: "RackhdError" },
} as const satisfies Endpoint;

// Northbound: OBM settings and the OBM library.

export const getNodeObm = {
  function: "getNodeObm",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/obm",
  handler: "handlers/provisioning/obms/getNodeObm",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "The node's OBM settings (`[{service, config}]`), secrets redacted",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "ObmSettingList", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const setNodeObm = {
  function: "setNodeObm",
  method: "POST",
  path: "/api/{version}/nodes/{identifier}/obm",
  handler: "handlers/provisioning/obms/setNodeObm",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary:
    "Add OBM settings (one or an array), upsert per service; 404, then 400 (bad body, unknown service, service the node type does not support)",
  request: { params: check.NodeParams, query: check.Query, body: check.ObmSettingsBody },
  responses: { 201: "Node", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const obmLibrary = {
  function: "obmLibrary",
  method: "GET",
  path: "/api/{version}/obms/library",
  handler: "handlers/provisioning/obms/library",
  service: "provisioning",
  auth: "northbound",
  access: "noData",
  summary: "The OBM services known, with their config fields",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "ObmServiceList", 401: "RackhdError" },
} as const satisfies Endpoint;

export const obmLibraryEntry = {
  function: "obmLibraryEntry",
  method: "GET",
  path: "/api/{version}/obms/library/{service}",
  handler: "handlers/provisioning/obms/libraryEntry",
  service: "provisioning",
  auth: "northbound",
  access: "noData",
  summary: "One OBM service",
  request: { params: check.ObmServiceParams, query: check.Query },
  responses: { 200: "ObmService", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

// Northbound: the graph library and workflows.

export const graphLibrary = {
  function: "graphLibrary",
  method: "GET",
  path: "/api/{version}/workflows/library",
  handler: "handlers/provisioning/workflows/library",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "Every graph definition",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "GraphList", 401: "RackhdError" },
} as const satisfies Endpoint;

export const taskLibrary = {
  function: "taskLibrary",
  method: "GET",
  path: "/api/{version}/workflows/tasks/library",
  handler: "handlers/provisioning/workflows/taskLibrary",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "Every task definition the graphs are built from (RackHD era B/C: concrete tasks, not base tasks); secrets redacted",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "TaskDefinitionList", 401: "RackhdError" },
} as const satisfies Endpoint;

/** The Swagger file's `GET /workflows/tasks` ("fetch tasks from task library"): the same list. */
export const taskList = {
  function: "taskList",
  method: "GET",
  path: "/api/{version}/workflows/tasks",
  handler: "handlers/provisioning/workflows/taskList",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "The task library, as `GET /workflows/tasks/library` answers it",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "TaskDefinitionList", 401: "RackhdError" },
} as const satisfies Endpoint;

/** PUT /workflows/tasks: a task definition, stored by injectableName (created or replaced). */
export const defineTask = {
  function: "defineTask",
  method: "PUT",
  path: "/api/{version}/workflows/tasks",
  handler: "handlers/provisioning/workflows/defineTask",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary:
    "Define or replace a task: `friendlyName`, `injectableName`, `implementsTask`, `options`, `properties` required (RackHD B/C); answers the stored definition",
  request: { params: check.VersionParams, query: check.Query, body: check.TaskDefinitionBody },
  responses: { 200: "StoredTaskDefinition", 400: "RackhdError", 401: "RackhdError", 413: "RackhdError" },
} as const satisfies Endpoint;

/** PUT /workflows: a graph definition, checked as RackHD era B/C checks one, stored by injectableName. */
export const defineGraph = {
  function: "defineGraph",
  method: "PUT",
  path: "/api/{version}/workflows",
  handler: "handlers/provisioning/workflows/defineGraph",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary:
    "Define or replace a graph; 400 with RackHD's text for an unknown task or base task, a duplicate label, a cycle, a missing option; answers its name",
  request: { params: check.VersionParams, query: check.Query, body: check.GraphDefinitionBody },
  responses: { 200: "DefinedName", 400: "RackhdError", 401: "RackhdError", 413: "RackhdError" },
} as const satisfies Endpoint;

/** POST /workflows (RackHD era B/C): a graph run with no node. */
export const runGraph = {
  function: "runGraph",
  method: "POST",
  path: "/api/{version}/workflows",
  handler: "handlers/provisioning/workflows/run",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary: "Run a graph with no node (`{name, options}` or `?name=`); 400 when one of its tasks needs a machine",
  request: { params: check.VersionParams, query: check.Query, body: check.StartWorkflowBody, bodyOptional: true },
  responses: { 201: "Workflow", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const graphLibraryEntry = {
  function: "graphLibraryEntry",
  method: "GET",
  path: "/api/{version}/workflows/library/{name}",
  handler: "handlers/provisioning/workflows/libraryEntry",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "One graph definition; `*` answers all of them",
  request: { params: check.NameParams, query: check.Query },
  responses: { 200: "GraphOrList", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const listWorkflows = {
  function: "listWorkflows",
  method: "GET",
  path: "/api/{version}/workflows",
  handler: "handlers/provisioning/workflows/list",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "Every workflow, brought up to date; `?active=true|false` filters",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "WorkflowList", 401: "RackhdError" },
} as const satisfies Endpoint;

export const getWorkflow = {
  function: "getWorkflow",
  method: "GET",
  path: "/api/{version}/workflows/{id}",
  handler: "handlers/provisioning/workflows/get",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "One workflow, by instanceId or record id",
  request: { params: check.WorkflowIdParams, query: check.Query },
  responses: { 200: "Workflow", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const listNodeWorkflows = {
  function: "listNodeWorkflows",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/workflows",
  handler: "handlers/provisioning/workflows/listForNode",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "The node's workflows, past and active",
  paged: true,
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "WorkflowList", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const startWorkflow = {
  function: "startWorkflow",
  method: "POST",
  path: "/api/{version}/nodes/{identifier}/workflows",
  handler: "handlers/provisioning/workflows/start",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary: "Run a graph on the node: `{name, options}` or `?name=`",
  request: { params: check.NodeParams, query: check.Query, body: check.StartWorkflowBody, bodyOptional: true },
  responses: { 201: "Workflow", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const getActiveWorkflow = {
  function: "getActiveWorkflow",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/workflows/active",
  handler: "handlers/provisioning/workflows/getActive",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "The node's active workflow; 204 when none",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "Workflow", 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const cancelActiveWorkflow = {
  function: "cancelActiveWorkflow",
  method: "DELETE",
  path: "/api/{version}/nodes/{identifier}/workflows/active",
  handler: "handlers/provisioning/workflows/cancelActive",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "Cancel the node's active workflow; 404 when none",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "Workflow", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

// Southbound: what a booting machine calls.

export const bootProfile = {
  function: "bootProfile",
  method: "GET",
  path: "/api/{version}/profiles",
  handler: "handlers/provisioning/boot/profiles",
  service: "provisioning",
  auth: "boot",
  access: "provisioningWrite",
  summary:
    'The iPXE script: without `?macs=`, one that collects the MACs and chains back; unknown MACs: discovery (node named after the first MAC) and a disk boot; an install task waiting: its profile; otherwise "Unable to locate active workflow." and a disk boot; a value that is not a MAC: 400',
  request: { params: check.VersionParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "Script", 400: "RackhdError" },
} as const satisfies Endpoint;

export const switchProfile = {
  function: "switchProfile",
  method: "GET",
  path: "/api/{version}/profiles/switch/{vendor}",
  handler: "handlers/provisioning/boot/switchProfile",
  service: "provisioning",
  auth: "boot",
  access: "provisioningWrite",
  summary:
    "What a switch's zero-touch provisioning fetches (cisco, arista, brocade; 400 otherwise): its waiting task's profile, else the task runner (Python) that runs its workflow's commands; the switch is known by `?macs=` or its address's lookup, and created as a `switch` node",
  request: { params: check.VendorParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "Script", 400: "RackhdError" },
} as const satisfies Endpoint;

export const nodeTemplate = {
  function: "nodeTemplate",
  method: "GET",
  path: "/api/{version}/templates/{name}",
  handler: "handlers/provisioning/boot/templates",
  service: "provisioning",
  auth: "boot",
  access: "provisioningWrite",
  summary:
    "`centos-ks`, `ubuntu-preseed`, `pxe-cloud-config.yml`, `esx-ks`, `renasar-ansible.pub` for the node `?nodeId=` with its workflow's `?token=` (403 otherwise); with BOOT_TOKENS=off, the node found by `?nodeId=`, then `?macs=`, then the source IP that last fetched a profile (HEAD too, through the catch-all)",
  request: { params: check.NameParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "Script", 400: "RackhdError", 403: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const notification = {
  function: "notification",
  method: "POST",
  path: "/api/{version}/notification",
  handler: "handlers/provisioning/boot/notification",
  service: "provisioning",
  auth: "boot",
  access: "provisioningWrite",
  summary:
    "The node says its install is done (`?nodeId=` with its workflow's `?token=`, 403 otherwise; no token with BOOT_TOKENS=off): completes its waiting task; 201 with the message",
  request: { params: check.VersionParams, query: check.Query, body: check.NotificationBody, bodyOptional: true },
  responses: { 401: "RackhdError", 201: "NotificationEcho", 400: "RackhdError", 403: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

// The contract, served: the OpenAPI document, a docs page, and RackHD's schemas.

export const provisioningOpenApi = {
  function: "provisioningOpenApi",
  method: "GET",
  path: "/api/{version}/openapi.json",
  handler: "handlers/docs/provisioningOpenApi",
  service: "provisioning",
  auth: "none",
  access: "noData",
  summary: "This service's OpenAPI 3.1 document",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "OpenApiDocument" },
} as const satisfies Endpoint;

export const provisioningDocs = {
  function: "provisioningDocs",
  method: "GET",
  path: "/api/{version}/docs",
  handler: "handlers/docs/provisioningDocs",
  service: "provisioning",
  auth: "none",
  access: "noData",
  summary: "The docs page (HTML), rendered from openapi.json (RackHD served its apidoc here)",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "Html" },
} as const satisfies Endpoint;

export const provisioningDocsViewer = {
  function: "provisioningDocsViewer",
  method: "GET",
  path: "/api/{version}/docs/redoc.js",
  handler: "handlers/docs/provisioningDocsViewer",
  service: "provisioning",
  auth: "none",
  access: "noData",
  summary: "The docs page's viewer (Redoc), served here so that the page loads nothing from elsewhere",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "ViewerScript" },
} as const satisfies Endpoint;

export const schemaList = {
  function: "schemaList",
  method: "GET",
  path: "/api/{version}/schemas",
  handler: "handlers/docs/schemaList",
  service: "provisioning",
  auth: "northbound",
  access: "noData",
  summary: "RackHD's serializable schemas (Serializables.V1.Node, …), from the same schemas that check the bodies",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "SerializableSchemaList" },
} as const satisfies Endpoint;

export const schemaEntry = {
  function: "schemaEntry",
  method: "GET",
  path: "/api/{version}/schemas/{id}",
  handler: "handlers/docs/schemaEntry",
  service: "provisioning",
  auth: "northbound",
  access: "noData",
  summary: "One serializable schema; 204 for an unknown id (RackHD's answer)",
  request: { params: check.SchemaIdParams, query: check.Query },
  responses: { 200: "SerializableSchema", 204: "NoContent" },
} as const satisfies Endpoint;
