import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";
import { withProgress } from "../shared/dataAccess";

/**
 * Sites, relays and their jobs: this service's own routes, not RackHD's (RackHD drove BMCs from its
 * own host; a Lambda function cannot reach a site's BMCs, so a relay on the site does). Every
 * summary says so, and their OpenAPI tags (`sites`, `relay`) do too.
 */

/**
 * Sites, relays and their jobs: this service's own routes, not RackHD's (RackHD drove BMCs from its
 * own host; a Lambda function cannot reach a site's BMCs, so a relay on the site does). Every
 * summary says so, and their OpenAPI tags (`sites`, `relay`) do too.
 */
const OWN = "This service's own: ";

export const createSite = /* @__PURE__ */ provisioningRoute({
  function: "createSite",
  method: "POST",
  path: "/api/{version}/sites",
  handler: "handlers/provisioning/relays/create",
  data: { write: ["sites"] },
  summary: `${OWN}create a site (a place with machines and relays); 409 when the name is taken`,
  request: { params: check.VersionParams, query: check.Query, body: check.SiteBody },
  responses: { 201: "Site", 400: "RackhdError", 401: "RackhdError", 409: "RackhdError" },
});

export const listSites = /* @__PURE__ */ provisioningRoute({
  function: "listSites",
  method: "GET",
  path: "/api/{version}/sites",
  handler: "handlers/provisioning/relays/list",
  data: { read: ["sites"] },
  summary: `${OWN}every site`,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "SiteList", 401: "RackhdError" },
});

export const getSite = /* @__PURE__ */ provisioningRoute({
  function: "getSite",
  method: "GET",
  path: "/api/{version}/sites/{id}",
  handler: "handlers/provisioning/relays/get",
  data: { read: ["sites"] },
  summary: `${OWN}one site`,
  request: { params: check.SiteParams, query: check.Query },
  responses: { 200: "Site", 401: "RackhdError", 404: "RackhdError" },
});

export const deleteSite = /* @__PURE__ */ provisioningRoute({
  function: "deleteSite",
  method: "DELETE",
  path: "/api/{version}/sites/{id}",
  handler: "handlers/provisioning/relays/remove",
  data: { read: ["nodes", "relayCredentials"], write: ["sites"] },
  summary: `${OWN}delete a site; 409 while relay credentials or nodes name it`,
  request: { params: check.SiteParams, query: check.Query },
  responses: { 200: "Site", 401: "RackhdError", 404: "RackhdError", 409: "RackhdError" },
});

export const createRelayCredential = /* @__PURE__ */ provisioningRoute({
  function: "createRelayCredential",
  method: "POST",
  path: "/api/{version}/sites/{id}/relays",
  handler: "handlers/provisioning/relays/createRelay",
  data: { read: ["sites"], write: ["relayCredentials"] },
  summary: `${OWN}a credential for a relay of the site; its token is in this answer only (the service keeps a hash)`,
  request: {
    params: check.SiteParams,
    query: check.Query,
    body: check.RelayBody,
    bodyOptional: true,
  },
  responses: { 201: "NewRelayCredential", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const listRelayCredentials = /* @__PURE__ */ provisioningRoute({
  function: "listRelayCredentials",
  method: "GET",
  path: "/api/{version}/sites/{id}/relays",
  handler: "handlers/provisioning/relays/listRelays",
  data: { read: ["relayCredentials", "sites"] },
  summary: `${OWN}the site's relay credentials: when each relay was last heard from, its version, online or not (never a token)`,
  request: { params: check.SiteParams, query: check.Query },
  responses: { 200: "RelayCredentialList", 401: "RackhdError", 404: "RackhdError" },
});

export const deleteRelayCredential = /* @__PURE__ */ provisioningRoute({
  function: "deleteRelayCredential",
  method: "DELETE",
  path: "/api/{version}/sites/{id}/relays/{relayId}",
  handler: "handlers/provisioning/relays/removeRelay",
  data: { write: ["relayCredentials", "relayConnections"] },
  summary: `${OWN}revoke a relay credential (rotate: create a new one, move the relay to it, revoke the old)`,
  request: { params: check.SiteRelayParams, query: check.Query },
  responses: { 200: "RelayCredential", 401: "RackhdError", 404: "RackhdError" },
});

export const listSiteJobs = /* @__PURE__ */ provisioningRoute({
  function: "listSiteJobs",
  method: "GET",
  path: "/api/{version}/sites/{id}/jobs",
  handler: "handlers/provisioning/relays/jobs",
  data: { read: ["relayJobs", "sites"] },
  summary: `${OWN}the site's relay jobs, newest first: the audit of power actions (who asked, when, what the BMC said)`,
  request: { params: check.SiteParams, query: check.Query },
  responses: { 200: "RelayJobList", 401: "RackhdError", 404: "RackhdError" },
});

export const setNodeSite = /* @__PURE__ */ provisioningRoute({
  function: "setNodeSite",
  permission: "administer",
  scope: "all",
  method: "PUT",
  path: "/api/{version}/nodes/{identifier}/site",
  handler: "handlers/provisioning/relays/nodeSite",
  data: { read: ["sites"], write: ["nodes"] },
  summary: `${OWN}the site a node belongs to (its relays drive the node's BMC); null takes it out`,
  request: { params: check.NodeParams, query: check.Query, body: check.NodeSiteBody },
  responses: { 200: "Node", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const nodeAction = /* @__PURE__ */ provisioningRoute({
  function: "nodeAction",
  method: "POST",
  path: "/api/{version}/nodes/{identifier}/power",
  handler: "handlers/provisioning/relays/nodeAction",
  data: { read: ["nodes"], write: ["relayJobs"] },
  summary: `${OWN}power (on, off, cycle, reset, soft, status, reboot), a one-time boot device, or identify, through a relay of the node's site; 202 with the job`,
  request: { params: check.NodeParams, query: check.Query, body: check.NodeActionBody },
  responses: { 202: "RelayJob", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const leaseRelayJobs = /* @__PURE__ */ provisioningRoute({
  function: "leaseRelayJobs",
  method: "POST",
  path: "/api/{version}/relay/jobs/lease",
  handler: "handlers/provisioning/relays/lease",
  data: { write: ["relayJobs"] },
  auth: "relay",
  summary: `${OWN}a relay takes up to \`max\` jobs of its site, each leased to it alone for 60 s (an empty list when there is none)`,
  request: { params: check.VersionParams, query: check.Query, body: check.LeaseBody, bodyOptional: true },
  responses: { 200: "LeasedJobList", 400: "RackhdError", 401: "RackhdError" },
});

export const reportRelayJob = /* @__PURE__ */ provisioningRoute({
  function: "reportRelayJob",
  method: "POST",
  path: "/api/{version}/relay/jobs/{id}/result",
  handler: "handlers/provisioning/relays/result",
  data: /* @__PURE__ */ withProgress({ write: ["catalogs", "pollerSamples"] }),
  auth: "relay",
  summary: `${OWN}a relay reports a job's result; the first wins, the same again changes nothing; 409 for a lease another relay now holds`,
  request: { params: check.JobParams, query: check.Query, body: check.JobResultBody },
  responses: { 200: "RelayJob", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError", 409: "RackhdError" },
});

export const relayJobActing = /* @__PURE__ */ provisioningRoute({
  function: "relayJobActing",
  method: "POST",
  path: "/api/{version}/relay/jobs/{id}/acting",
  handler: "handlers/provisioning/relays/acting",
  data: { write: ["relayJobs"] },
  auth: "relay",
  summary: `${OWN}a relay is about to act on a BMC for an action that must not run twice (reset, cycle, reboot): should it stop before its result, the job fails rather than run again; 409 for a lease it no longer holds`,
  request: { params: check.JobParams, query: check.Query, body: check.ActingBody },
  responses: { 200: "RelayJob", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError", 409: "RackhdError" },
});
