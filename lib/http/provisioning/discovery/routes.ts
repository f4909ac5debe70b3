import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";
import { withProgress } from "../shared/dataAccess";

/** Southbound: the discovery microkernel's protocol: routes (see lib/http/routes/index.ts for what an entry says). */

export const microkernelBootstrap = /* @__PURE__ */ provisioningRoute({
  function: "microkernelBootstrap",
  method: "GET",
  path: "/api/{version}/tasks/bootstrap.js",
  handler: "handlers/provisioning/discovery/bootstrap",
  data: /* @__PURE__ */ withProgress(),
  auth: "boot",
  summary:
    'The microkernel\'s loop for the node with `?macAddress=` (a script for `node`); 404 `{"error":"Not Found"}` for a MAC no node has',
  request: { params: check.VersionParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "MicrokernelScript", 400: "RackhdError", 404: "PlainNotFound" },
});

export const microkernelCommands = /* @__PURE__ */ provisioningRoute({
  function: "microkernelCommands",
  method: "GET",
  path: "/api/{version}/tasks/{identifier}",
  handler: "handlers/provisioning/discovery/commands",
  data: /* @__PURE__ */ withProgress(),
  auth: "boot",
  summary: "The commands the node's microkernel is to run now; 204 when none (the first request ends the microkernel's bootstrap)",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "CommandSet", 204: "NoContent", 403: "RackhdError", 404: "RackhdError" },
});

export const microkernelResults = /* @__PURE__ */ provisioningRoute({
  function: "microkernelResults",
  method: "POST",
  path: "/api/{version}/tasks/{identifier}",
  handler: "handlers/provisioning/discovery/results",
  data: /* @__PURE__ */ withProgress({ write: ["catalogs", "lookups"] }),
  auth: "boot",
  summary: "The results of the commands handed out: they become catalogs and end the task; 201 with no body (RackHD: always)",
  request: { params: check.NodeParams, query: check.Query, body: check.CommandResultsBody },
  responses: { 401: "RackhdError", 201: "NoContent", 400: "RackhdError", 403: "RackhdError", 413: "RackhdError" },
});
