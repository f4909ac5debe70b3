import * as check from "../schemas/validators.generated";
import type { Endpoint } from "./endpoint";

/**
 * The task list service (/todo/api/v1.0): the Flask tutorial's five routes. Entries are object
 * literals without spreads, so a bundle keeps only the entry (and validators) its handler uses.
 */

export const listTasks = {
  function: "listTasks",
  method: "GET",
  path: "/todo/api/v1.0/tasks",
  handler: "handlers/tasks/list",
  service: "tasks",
  auth: "tasksList",
  access: "taskRead",
  summary: "Every task, in creation order",
  paged: true,
  request: { query: check.Query },
  responses: { 200: "TaskListEnvelope", 401: "TaskError", 403: "TaskError" },
} as const satisfies Endpoint;

export const createTask = {
  function: "createTask",
  method: "POST",
  path: "/todo/api/v1.0/tasks",
  handler: "handlers/tasks/create",
  service: "tasks",
  auth: "tasks",
  access: "taskWrite",
  idempotent: true,
  summary: "Create a task (id = the last task's + 1)",
  request: { body: check.NewTaskBody },
  responses: { 201: "TaskEnvelope", 400: "TaskError", 507: "TaskError", 401: "TaskError", 403: "TaskError" },
} as const satisfies Endpoint;

export const getTask = {
  function: "getTask",
  method: "GET",
  path: "/todo/api/v1.0/tasks/{id}",
  handler: "handlers/tasks/get",
  service: "tasks",
  auth: "tasks",
  access: "taskRead",
  summary: "One task",
  request: { params: check.TaskIdParams },
  responses: { 200: "TaskEnvelope", 404: "TaskError", 401: "TaskError", 403: "TaskError" },
} as const satisfies Endpoint;

export const updateTask = {
  function: "updateTask",
  method: "PUT",
  path: "/todo/api/v1.0/tasks/{id}",
  handler: "handlers/tasks/update",
  service: "tasks",
  auth: "tasks",
  access: "taskWrite",
  idempotent: true,
  summary: "Change the fields sent (404 before 400)",
  request: { params: check.TaskIdParams, body: check.TaskPatchBody },
  responses: { 200: "TaskEnvelope", 400: "TaskError", 404: "TaskError", 401: "TaskError", 403: "TaskError" },
} as const satisfies Endpoint;

export const deleteTask = {
  function: "deleteTask",
  method: "DELETE",
  path: "/todo/api/v1.0/tasks/{id}",
  handler: "handlers/tasks/remove",
  service: "tasks",
  auth: "tasks",
  access: "taskWrite",
  summary: "Delete a task",
  request: { params: check.TaskIdParams },
  responses: { 200: "DeleteResult", 404: "TaskError", 401: "TaskError", 403: "TaskError" },
} as const satisfies Endpoint;

// The contract, served: the OpenAPI document and a docs page that renders it.

export const tasksOpenApi = {
  function: "tasksOpenApi",
  method: "GET",
  path: "/todo/api/v1.0/openapi.json",
  handler: "handlers/docs/tasksOpenApi",
  service: "tasks",
  auth: "none",
  access: "noData",
  summary: "This service's OpenAPI 3.1 document",
  request: {},
  responses: { 200: "OpenApiDocument" },
} as const satisfies Endpoint;

export const tasksDocs = {
  function: "tasksDocs",
  method: "GET",
  path: "/todo/api/v1.0/docs",
  handler: "handlers/docs/tasksDocs",
  service: "tasks",
  auth: "none",
  access: "noData",
  summary: "The docs page (HTML), rendered from openapi.json",
  request: {},
  responses: { 200: "Html" },
} as const satisfies Endpoint;

export const tasksDocsViewer = {
  function: "tasksDocsViewer",
  method: "GET",
  path: "/todo/api/v1.0/docs/redoc.js",
  handler: "handlers/docs/tasksDocsViewer",
  service: "tasks",
  auth: "none",
  access: "noData",
  summary: "The docs page's viewer (Redoc), served here so that the page loads nothing from elsewhere",
  request: {},
  responses: { 200: "ViewerScript" },
} as const satisfies Endpoint;
