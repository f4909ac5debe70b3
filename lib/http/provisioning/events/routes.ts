import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/** The service's events, as its hooks receive them (routes see lib/http/routes). */

export const nodeEvents = /* @__PURE__ */ provisioningRoute({
  function: "nodeEvents",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/events",
  handler: "handlers/provisioning/events/node",
  data: { read: ["events"] },
  summary:
    "This service's own: the node's events in order (RackHD's envelope with an id and the node's sequence): added, attributes, graphs started, progressed and finished, install progress, power results; ?after=<sequence>&limit=",
  request: { params: check.NodeParams, query: check.EventsQuery },
  responses: { 200: "EventList", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const workflowEvents = /* @__PURE__ */ provisioningRoute({
  function: "workflowEvents",
  method: "GET",
  path: "/api/{version}/workflows/{id}/events",
  handler: "handlers/provisioning/events/workflow",
  data: { read: ["workflows", "events"] },
  summary: "This service's own: the workflow's events in order (started, progress, install progress, finished); ?after=<sequence>&limit=",
  request: { params: check.WorkflowIdParams, query: check.EventsQuery },
  responses: { 200: "EventList", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});
