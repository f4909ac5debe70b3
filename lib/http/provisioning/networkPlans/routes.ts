import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/**
 * A node's network plan (issue 54): this service's own routes, not RackHD's. docs/network.md.
 */
const OWN = "This service's own: ";

export const getNetworkPlan = /* @__PURE__ */ provisioningRoute({
  function: "getNetworkPlan",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/network",
  handler: "handlers/provisioning/networkPlans/get",
  data: { read: ["lookups", "nodes", "subnets"] },
  summary: `${OWN}the node's network plan, its given addresses, what its installed system reported, where the two differ, and the netplan its install gets (an empty plan: DHCP on every NIC)`,
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "NetworkPlan", 401: "RackhdError", 404: "RackhdError" },
});

export const putNetworkPlan = /* @__PURE__ */ provisioningRoute({
  function: "putNetworkPlan",
  method: "PUT",
  path: "/api/{version}/nodes/{identifier}/network",
  handler: "handlers/provisioning/networkPlans/put",
  data: { read: ["subnets"], write: ["addresses", "lookups", "nodes"] },
  summary: `${OWN}set the node's network plan (NICs by MAC, bonds, VLANs; per interface auto, a fixed address or dhcp): its addresses are given now and kept across redeploys; 400 naming what does not fit, 409 for an address another node holds or a full pool`,
  request: { params: check.NodeParams, query: check.Query, body: check.NetworkPlanBody },
  responses: { 200: "NetworkPlan", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError", 409: "RackhdError" },
});

export const deleteNetworkPlan = /* @__PURE__ */ provisioningRoute({
  function: "deleteNetworkPlan",
  method: "DELETE",
  path: "/api/{version}/nodes/{identifier}/network",
  handler: "handlers/provisioning/networkPlans/remove",
  data: { write: ["addresses", "nodes"] },
  summary: `${OWN}remove the node's network plan (204): its addresses are freed, its next install configures every NIC by DHCP`,
  request: { params: check.NodeParams, query: check.Query },
  responses: { 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
});
