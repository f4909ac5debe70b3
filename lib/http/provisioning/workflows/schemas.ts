import { FAILURE_REASONS } from "../../../provisioning/workflowEngine/workflow";
import { isoTime, NAME_MAX, name, objectId, version } from "../fields";

/** Workflows: running graphs and their state (RackHD 1.1 §4): schemas. */

export const WorkflowIdParams = {
  type: "object",
  properties: { version, id: name },
  required: ["version", "id"],
} as const;

/** POST /nodes/{id}/workflows: the name may come from `?name=` instead; the domain checks both in RackHD's order. */
export const StartWorkflowBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: {
    name: { type: "string", maxLength: NAME_MAX, "x-error": "Graph name is missing or in wrong format" },
    options: {},
  },
  examples: [
    {
      name: "Graph.InstallCentOS",
      options: {
        defaults: { obmServiceName: "noop-obm-service" },
        "install-os": { version: "7.0", repo: "{{api.server}}/Centos/7.0", rootPassword: "root" },
      },
    },
  ],
} as const;

const taskState = { enum: ["pending", "running", "succeeded", "failed", "cancelled", "timeout"] } as const;

const failureReason = { enum: FAILURE_REASONS } as const;

/** Why a workflow failed, timed out or was cancelled (provisioning/workflows/failure.ts). */
export const WorkflowFailure = {
  type: "object",
  properties: {
    reason: failureReason,
    message: { type: "string" },
    task: { type: "string" },
    taskId: { type: "string" },
    at: isoTime,
    timeline: { type: "string" },
  },
  required: ["reason", "message", "task", "taskId", "at"],
  additionalProperties: false,
} as const;

const workflow = {
  type: "object",
  properties: {
    id: { type: "string" },
    instanceId: { type: "string" },
    name: { type: "string" },
    injectableName: { type: "string" },
    _status: { enum: ["running", "succeeded", "failed", "cancelled", "timeout"] },
    node: objectId,
    context: { type: "object", properties: { target: objectId, graphId: { type: "string" } }, required: ["graphId"] },
    definition: { type: "object" },
    tasks: {
      type: "object",
      additionalProperties: {
        type: "object",
        properties: {
          instanceId: { type: "string" },
          label: { type: "string" },
          injectableName: { type: "string" },
          friendlyName: { type: "string" },
          state: taskState,
          options: { type: "object" },
          waitingOn: { type: "object", additionalProperties: { type: "string" } },
          createdAt: isoTime,
          startedAt: isoTime,
          finishedAt: isoTime,
          /** When the machine fetched this task's boot profile. */
          bootedAt: isoTime,
          /** When the machine fetched this task's install script (kickstart, preseed, …). */
          templateFetchedAt: isoTime,
          /** When the installer first reported, finished writing the system, and the system's first boot finished. */
          installerStartedAt: isoTime,
          installedAt: isoTime,
          firstBootAt: isoTime,
          reason: failureReason,
          error: { type: "string" },
        },
        required: ["instanceId", "label", "injectableName", "friendlyName", "state", "options", "waitingOn", "createdAt"],
        not: { required: ["kind"] },
      },
    },
    failure: WorkflowFailure,
    /** The node's life-cycle action it carries out (POST /nodes/{identifier}/actions). */
    lifecycle: {
      type: "object",
      properties: { action: { type: "string" }, operation: { type: "string" } },
      required: ["action", "operation"],
      additionalProperties: false,
    },
    createdAt: isoTime,
    updatedAt: isoTime,
  },
  // A graph run with no node (POST /workflows) has no `node` and no `context.target`.
  required: ["id", "instanceId", "name", "injectableName", "_status", "context", "definition", "tasks", "createdAt", "updatedAt"],
} as const;

export const Workflow = workflow;

export const WorkflowList = { type: "array", items: workflow } as const;
