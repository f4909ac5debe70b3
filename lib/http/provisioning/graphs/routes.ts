import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";
import { withProgress } from "../shared/dataAccess";

/** The graph and task library (RackHD 1.1 §4, eras B/C): routes (see lib/http/routes/index.ts for what an entry says). */

export const graphLibrary = /* @__PURE__ */ provisioningRoute({
  function: "graphLibrary",
  scope: "any",
  method: "GET",
  path: "/api/{version}/workflows/library",
  handler: "handlers/provisioning/graphs/library",
  data: { read: ["definitions"] },
  summary: "Every graph definition",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "GraphList", 401: "RackhdError" },
});

export const taskLibrary = /* @__PURE__ */ provisioningRoute({
  function: "taskLibrary",
  scope: "any",
  method: "GET",
  path: "/api/{version}/workflows/tasks/library",
  handler: "handlers/provisioning/graphs/taskLibrary",
  data: { read: ["definitions"] },
  summary: "Every task definition the graphs are built from (RackHD era B/C: concrete tasks, not base tasks); secrets redacted",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "TaskDefinitionList", 401: "RackhdError" },
});

/** The Swagger file's `GET /workflows/tasks` ("fetch tasks from task library"): the same list. */
export const taskList = /* @__PURE__ */ provisioningRoute({
  function: "taskList",
  scope: "any",
  method: "GET",
  path: "/api/{version}/workflows/tasks",
  handler: "handlers/provisioning/graphs/taskList",
  data: { read: ["definitions"] },
  summary: "The task library, as `GET /workflows/tasks/library` answers it",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "TaskDefinitionList", 401: "RackhdError" },
});

/** PUT /workflows/tasks: a task definition, stored by injectableName (created or replaced). */
export const defineTask = /* @__PURE__ */ provisioningRoute({
  function: "defineTask",
  method: "PUT",
  path: "/api/{version}/workflows/tasks",
  handler: "handlers/provisioning/graphs/defineTask",
  data: { write: ["definitions"] },
  summary:
    "Define or replace a task: `friendlyName`, `injectableName`, `implementsTask`, `options`, `properties` required (RackHD B/C); answers the stored definition",
  request: { params: check.VersionParams, query: check.Query, body: check.TaskDefinitionBody },
  responses: { 200: "StoredTaskDefinition", 400: "RackhdError", 401: "RackhdError", 413: "RackhdError" },
});

/** PUT /workflows: a graph definition, checked as RackHD era B/C checks one, stored by injectableName. */
export const defineGraph = /* @__PURE__ */ provisioningRoute({
  function: "defineGraph",
  method: "PUT",
  path: "/api/{version}/workflows",
  handler: "handlers/provisioning/graphs/defineGraph",
  data: { write: ["definitions"] },
  summary:
    "Define or replace a graph; 400 with RackHD's text for an unknown task or base task, a duplicate label, a cycle, a missing option; answers its name",
  request: { params: check.VersionParams, query: check.Query, body: check.GraphDefinitionBody },
  responses: { 200: "DefinedName", 400: "RackhdError", 401: "RackhdError", 413: "RackhdError" },
});

/** POST /workflows (RackHD era B/C): a graph run with no node. */
export const runGraph = /* @__PURE__ */ provisioningRoute({
  function: "runGraph",
  permission: "operate",
  method: "POST",
  path: "/api/{version}/workflows",
  handler: "handlers/provisioning/graphs/run",
  data: /* @__PURE__ */ withProgress(),
  idempotent: true,
  summary: "Run a graph with no node (`{name, options}` or `?name=`); 400 when one of its tasks needs a machine",
  request: { params: check.VersionParams, query: check.Query, body: check.StartWorkflowBody, bodyOptional: true },
  responses: { 201: "Workflow", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const graphLibraryEntry = /* @__PURE__ */ provisioningRoute({
  function: "graphLibraryEntry",
  scope: "any",
  method: "GET",
  path: "/api/{version}/workflows/library/{name}",
  handler: "handlers/provisioning/graphs/libraryEntry",
  data: { read: ["definitions"] },
  summary: "One graph definition; `*` answers all of them",
  request: { params: check.NameParams, query: check.Query },
  responses: { 200: "GraphOrList", 401: "RackhdError", 404: "RackhdError" },
});
