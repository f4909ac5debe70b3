import { NO_DATA } from "../../../dataAccess";
import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";
import { POLLING } from "../shared/dataAccess";

/** The pollers (RackHD 1.1 §7). */

export const pollerLibrary = /* @__PURE__ */ provisioningRoute({
  function: "pollerLibrary",
  scope: "any",
  method: "GET",
  path: "/api/{version}/pollers/library",
  handler: "handlers/provisioning/pollers/library",
  data: NO_DATA,
  summary: "The poller types and their config keys (ipmi, snmp, redfish)",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "PollerLibrary", 401: "RackhdError" },
});

export const pollerLibraryEntry = /* @__PURE__ */ provisioningRoute({
  function: "pollerLibraryEntry",
  scope: "any",
  method: "GET",
  path: "/api/{version}/pollers/library/{name}",
  handler: "handlers/provisioning/pollers/libraryEntry",
  data: NO_DATA,
  summary: "One poller type; 204 for an unknown name (RackHD's answer)",
  request: { params: check.NameParams, query: check.Query },
  responses: { 200: "PollerType", 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
});

export const listPollers = /* @__PURE__ */ provisioningRoute({
  function: "listPollers",
  method: "GET",
  path: "/api/{version}/pollers",
  handler: "handlers/provisioning/pollers/list",
  data: { read: ["pollers"] },
  summary: "Every poller (`type` in place of RackHD's `name`); equality filters",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "PollerList", 401: "RackhdError" },
});

export const createPoller = /* @__PURE__ */ provisioningRoute({
  function: "createPoller",
  permission: "operate",
  method: "POST",
  path: "/api/{version}/pollers",
  handler: "handlers/provisioning/pollers/create",
  data: { write: ["pollers"] },
  idempotent: true,
  summary: "Create a poller (`type`, `pollInterval` ms, `node`, `config`, `paused`); 200 as RackHD; due at once",
  request: { params: check.VersionParams, query: check.Query, body: check.PollerBody },
  responses: { 200: "Poller", 400: "RackhdError", 401: "RackhdError" },
});

export const getPoller = /* @__PURE__ */ provisioningRoute({
  function: "getPoller",
  method: "GET",
  path: "/api/{version}/pollers/{id}",
  handler: "handlers/provisioning/pollers/get",
  data: { read: ["pollers"] },
  summary: "One poller; 404 `Could not find workitem with identifier <id>`",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "Poller", 401: "RackhdError", 404: "RackhdError" },
});

export const patchPoller = /* @__PURE__ */ provisioningRoute({
  function: "patchPoller",
  permission: "operate",
  method: "PATCH",
  path: "/api/{version}/pollers/{id}",
  handler: "handlers/provisioning/pollers/patch",
  data: { write: ["pollers"] },
  idempotent: true,
  summary: "Change a poller (404, then 400); `paused: true` stops it",
  request: { params: check.IdParams, query: check.Query, body: check.PollerPatchBody },
  responses: { 200: "Poller", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const deletePoller = /* @__PURE__ */ provisioningRoute({
  function: "deletePoller",
  permission: "operate",
  method: "DELETE",
  path: "/api/{version}/pollers/{id}",
  handler: "handlers/provisioning/pollers/remove",
  data: { write: ["pollerSamples", "pollers"] },
  summary: "Delete a poller and its samples (204)",
  request: { params: check.IdParams, query: check.Query },
  responses: { 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
});

export const pollerData = /* @__PURE__ */ provisioningRoute({
  function: "pollerData",
  method: "GET",
  path: "/api/{version}/pollers/{id}/data",
  handler: "handlers/provisioning/pollers/data",
  data: POLLING,
  summary: "The poller's last samples (at most 10, oldest first), running it first if it is due; 404 with RackHD's text until it has one",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "PollerSampleList", 401: "RackhdError", 404: "RackhdError" },
});

export const currentPollerData = /* @__PURE__ */ provisioningRoute({
  function: "currentPollerData",
  method: "GET",
  path: "/api/{version}/pollers/{id}/data/current",
  handler: "handlers/provisioning/pollers/currentData",
  data: POLLING,
  summary: "The poller's newest sample, in a one-element array (RackHD), running it first if it is due; 404 as /data",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "PollerSampleList", 401: "RackhdError", 404: "RackhdError" },
});

export const pausePoller = /* @__PURE__ */ provisioningRoute({
  function: "pausePoller",
  permission: "operate",
  method: "PATCH",
  path: "/api/{version}/pollers/{id}/pause",
  handler: "handlers/provisioning/pollers/pause",
  data: { write: ["pollers"] },
  summary: "Pause a poller (no body): it runs no more until resumed; 200 with the poller",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "Poller", 401: "RackhdError", 404: "RackhdError" },
});

export const resumePoller = /* @__PURE__ */ provisioningRoute({
  function: "resumePoller",
  permission: "operate",
  method: "PATCH",
  path: "/api/{version}/pollers/{id}/resume",
  handler: "handlers/provisioning/pollers/resume",
  data: { write: ["pollers"] },
  summary: "Resume a paused poller (no body); 200 with the poller",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "Poller", 401: "RackhdError", 404: "RackhdError" },
});

export const listNodePollers = /* @__PURE__ */ provisioningRoute({
  function: "listNodePollers",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/pollers",
  handler: "handlers/provisioning/pollers/listForNode",
  data: { read: ["nodes", "pollers"] },
  summary: "The node's pollers as stored (RackHD: raw work items, `name` such as `Pollers.IPMI`, no `type`)",
  paged: true,
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "PollerRecordList", 401: "RackhdError", 404: "RackhdError" },
});
