import { NO_DATA } from "../../dataAccess";
import { tasksRoute } from "../routes/entryBuilders";
import * as check from "../schemas/validators.generated";

/**
 * The task list service (/todo/api/v1.0): the Flask tutorial's five routes. Entries are object
 * literals without spreads, so a bundle keeps only the entry (and validators) its handler uses.
 */

export const listTasks = /* @__PURE__ */ tasksRoute({
  function: "listTasks",
  method: "GET",
  path: "/todo/api/v1.0/tasks",
  handler: "handlers/tasks/list",
  auth: "tasksList",
  summary: "Every task, in creation order",
  paged: true,
  request: { query: check.Query },
  responses: { 200: "TaskListEnvelope", 401: "TaskError", 403: "TaskError" },
});

export const createTask = /* @__PURE__ */ tasksRoute({
  function: "createTask",
  method: "POST",
  path: "/todo/api/v1.0/tasks",
  handler: "handlers/tasks/create",
  idempotent: true,
  summary: "Create a task (id = the last task's + 1)",
  request: { body: check.NewTaskBody },
  responses: { 201: "TaskEnvelope", 400: "TaskError", 507: "TaskError", 401: "TaskError", 403: "TaskError" },
});

export const getTask = /* @__PURE__ */ tasksRoute({
  function: "getTask",
  method: "GET",
  path: "/todo/api/v1.0/tasks/{id}",
  handler: "handlers/tasks/get",
  summary: "One task",
  request: { params: check.TaskIdParams },
  responses: { 200: "TaskEnvelope", 404: "TaskError", 401: "TaskError", 403: "TaskError" },
});

export const updateTask = /* @__PURE__ */ tasksRoute({
  function: "updateTask",
  method: "PUT",
  path: "/todo/api/v1.0/tasks/{id}",
  handler: "handlers/tasks/update",
  idempotent: true,
  summary: "Change the fields sent (404 before 400)",
  request: { params: check.TaskIdParams, body: check.TaskPatchBody },
  responses: { 200: "TaskEnvelope", 400: "TaskError", 404: "TaskError", 401: "TaskError", 403: "TaskError" },
});

export const deleteTask = /* @__PURE__ */ tasksRoute({
  function: "deleteTask",
  method: "DELETE",
  path: "/todo/api/v1.0/tasks/{id}",
  handler: "handlers/tasks/remove",
  summary: "Delete a task",
  request: { params: check.TaskIdParams },
  responses: { 200: "DeleteResult", 404: "TaskError", 401: "TaskError", 403: "TaskError" },
});

// The contract, served: the OpenAPI document and a docs page that renders it.

export const tasksOpenApi = /* @__PURE__ */ tasksRoute({
  function: "tasksOpenApi",
  method: "GET",
  path: "/todo/api/v1.0/openapi.json",
  handler: "handlers/tasks/tasksOpenApi",
  auth: "none",
  data: NO_DATA,
  summary: "This service's OpenAPI 3.1 document",
  request: {},
  responses: { 200: "OpenApiDocument" },
});

export const tasksDocs = /* @__PURE__ */ tasksRoute({
  function: "tasksDocs",
  method: "GET",
  path: "/todo/api/v1.0/docs",
  handler: "handlers/tasks/tasksDocs",
  auth: "none",
  data: NO_DATA,
  summary: "The docs page (HTML), rendered from openapi.json",
  request: {},
  responses: { 200: "Html" },
});

export const tasksDocsViewer = /* @__PURE__ */ tasksRoute({
  function: "tasksDocsViewer",
  method: "GET",
  path: "/todo/api/v1.0/docs/redoc.js",
  handler: "handlers/tasks/tasksDocsViewer",
  auth: "none",
  data: NO_DATA,
  summary: "The docs page's viewer (Redoc), served here so that the page loads nothing from elsewhere",
  request: {},
  responses: { 200: "ViewerScript" },
});
