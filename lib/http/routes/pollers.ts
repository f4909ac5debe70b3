import * as check from "../schemas/validators.generated";
import type { Endpoint } from "./endpoint";

/** The pollers (RackHD 1.1 §7). Entries as in provisioning.ts. */

export const pollerLibrary = {
  function: "pollerLibrary",
  method: "GET",
  path: "/api/{version}/pollers/library",
  handler: "handlers/provisioning/pollers/library",
  service: "provisioning",
  auth: "northbound",
  access: "noData",
  summary: "The poller types and their config keys (ipmi, snmp, redfish)",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "PollerLibrary", 401: "RackhdError" },
} as const satisfies Endpoint;

export const pollerLibraryEntry = {
  function: "pollerLibraryEntry",
  method: "GET",
  path: "/api/{version}/pollers/library/{name}",
  handler: "handlers/provisioning/pollers/libraryEntry",
  service: "provisioning",
  auth: "northbound",
  access: "noData",
  summary: "One poller type; 204 for an unknown name (RackHD's answer)",
  request: { params: check.NameParams, query: check.Query },
  responses: { 200: "PollerType", 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const listPollers = {
  function: "listPollers",
  method: "GET",
  path: "/api/{version}/pollers",
  handler: "handlers/provisioning/pollers/list",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "Every poller (`type` in place of RackHD's `name`); equality filters",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "PollerList", 401: "RackhdError" },
} as const satisfies Endpoint;

export const createPoller = {
  function: "createPoller",
  method: "POST",
  path: "/api/{version}/pollers",
  handler: "handlers/provisioning/pollers/create",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary: "Create a poller (`type`, `pollInterval` ms, `node`, `config`, `paused`); 200 as RackHD; due at once",
  request: { params: check.VersionParams, query: check.Query, body: check.PollerBody },
  responses: { 200: "Poller", 400: "RackhdError", 401: "RackhdError" },
} as const satisfies Endpoint;

export const getPoller = {
  function: "getPoller",
  method: "GET",
  path: "/api/{version}/pollers/{id}",
  handler: "handlers/provisioning/pollers/get",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "One poller; 404 `Could not find workitem with identifier <id>`",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "Poller", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const patchPoller = {
  function: "patchPoller",
  method: "PATCH",
  path: "/api/{version}/pollers/{id}",
  handler: "handlers/provisioning/pollers/patch",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary: "Change a poller (404, then 400); `paused: true` stops it",
  request: { params: check.IdParams, query: check.Query, body: check.PollerPatchBody },
  responses: { 200: "Poller", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const deletePoller = {
  function: "deletePoller",
  method: "DELETE",
  path: "/api/{version}/pollers/{id}",
  handler: "handlers/provisioning/pollers/remove",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "Delete a poller and its samples (204)",
  request: { params: check.IdParams, query: check.Query },
  responses: { 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const pollerData = {
  function: "pollerData",
  method: "GET",
  path: "/api/{version}/pollers/{id}/data",
  handler: "handlers/provisioning/pollers/data",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "The poller's last samples (at most 10, oldest first), running it first if it is due; 404 with RackHD's text until it has one",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "PollerSampleList", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const currentPollerData = {
  function: "currentPollerData",
  method: "GET",
  path: "/api/{version}/pollers/{id}/data/current",
  handler: "handlers/provisioning/pollers/currentData",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "The poller's newest sample, in a one-element array (RackHD), running it first if it is due; 404 as /data",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "PollerSampleList", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const pausePoller = {
  function: "pausePoller",
  method: "PATCH",
  path: "/api/{version}/pollers/{id}/pause",
  handler: "handlers/provisioning/pollers/pause",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "Pause a poller (no body): it runs no more until resumed; 200 with the poller",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "Poller", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const resumePoller = {
  function: "resumePoller",
  method: "PATCH",
  path: "/api/{version}/pollers/{id}/resume",
  handler: "handlers/provisioning/pollers/resume",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "Resume a paused poller (no body); 200 with the poller",
  request: { params: check.IdParams, query: check.Query },
  responses: { 200: "Poller", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const listNodePollers = {
  function: "listNodePollers",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/pollers",
  handler: "handlers/provisioning/pollers/listForNode",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "The node's pollers as stored (RackHD: raw work items, `name` such as `Pollers.IPMI`, no `type`)",
  paged: true,
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "PollerRecordList", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;
