import * as check from "../schemas/validators.generated";
import type { Endpoint } from "./endpoint";

/** The provisioning service's config, versions, SSH settings and OBM identify (RackHD 1.1). Entries as in provisioning.ts. */

export const getConfig = {
  function: "getConfig",
  method: "GET",
  path: "/api/{version}/config",
  handler: "handlers/provisioning/operations/getConfig",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "The service's config: the deployment's keys (RackHD's names where they apply) and those set at run time; every secret redacted",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "ServiceConfig", 401: "RackhdError" },
} as const satisfies Endpoint;

export const patchConfig = {
  function: "patchConfig",
  method: "PATCH",
  path: "/api/{version}/config",
  handler: "handlers/provisioning/operations/patchConfig",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary: "Set top-level config keys for every container; a deployment key only to the value it has (400 otherwise: it takes a deploy)",
  request: { params: check.VersionParams, query: check.Query, body: check.ConfigPatchBody },
  responses: { 200: "ServiceConfig", 400: "RackhdError", 401: "RackhdError", 413: "RackhdError" },
} as const satisfies Endpoint;

export const getVersions = {
  function: "getVersions",
  method: "GET",
  path: "/api/{version}/versions",
  handler: "handlers/provisioning/operations/versions",
  service: "provisioning",
  auth: "northbound",
  access: "noData",
  summary: "The versions of what serves the API: this service and its runtime (RackHD listed its on-* packages)",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "VersionList", 401: "RackhdError" },
} as const satisfies Endpoint;

export const getNodeSsh = {
  function: "getNodeSsh",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/ssh",
  handler: "handlers/provisioning/operations/getSsh",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "The node's SSH settings, password and private key redacted; 204 when it has none (RackHD era C)",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "SshSettings", 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const setNodeSsh = {
  function: "setNodeSsh",
  method: "POST",
  path: "/api/{version}/nodes/{identifier}/ssh",
  handler: "handlers/provisioning/operations/setSsh",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  idempotent: true,
  summary:
    "Set the node's SSH settings (`host`, `user`, and `password` or `privateKey`); 201 with the node, secrets redacted; 400 `Invalid SSH body`",
  request: { params: check.NodeParams, query: check.Query, body: check.SshBody },
  responses: { 201: "Node", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const getNodeIdentify = {
  function: "getNodeIdentify",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/obm/identify",
  handler: "handlers/provisioning/operations/getIdentify",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "What the chassis identify light was last set to (RackHD routed only the POST)",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "IdentifyState", 401: "RackhdError", 404: "RackhdError" },
} as const satisfies Endpoint;

export const setNodeIdentify = {
  function: "setNodeIdentify",
  method: "POST",
  path: "/api/{version}/nodes/{identifier}/obm/identify",
  handler: "handlers/provisioning/operations/setIdentify",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary:
    'Turn the chassis identify light on (`{"value": true}`) or off through the node\'s OBM service; 422 for a service this function cannot drive',
  request: { params: check.NodeParams, query: check.Query, body: check.IdentifyBody, bodyOptional: true },
  responses: { 200: "IdentifyState", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError", 422: "RackhdError" },
} as const satisfies Endpoint;
