import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/**
 * Subnets and the addresses given from their pools (issue 54): this service's own routes, not
 * RackHD's (MAAS's model); their OpenAPI tag (`subnets`) says so. docs/network.md.
 */
const OWN = "This service's own: ";

export const createSubnet = /* @__PURE__ */ provisioningRoute({
  function: "createSubnet",
  method: "POST",
  path: "/api/{version}/subnets",
  handler: "handlers/provisioning/subnets/create",
  data: { read: ["sites"], write: ["subnets"] },
  idempotent: true,
  summary: `${OWN}declare a subnet of a site (CIDR, gateway, name servers, VLAN, MTU, boot range, static pool, reserved addresses); 400 naming what does not fit (a range outside the CIDR, two ranges or two of a site's subnets that overlap)`,
  request: { params: check.VersionParams, query: check.Query, body: check.SubnetBody },
  responses: { 201: "Subnet", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const listSubnets = /* @__PURE__ */ provisioningRoute({
  function: "listSubnets",
  method: "GET",
  path: "/api/{version}/subnets",
  handler: "handlers/provisioning/subnets/list",
  data: { read: ["subnets"] },
  summary: `${OWN}every subnet, oldest first; ?site=<id> one site's`,
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "SubnetList", 400: "RackhdError", 401: "RackhdError" },
});

export const getSubnet = /* @__PURE__ */ provisioningRoute({
  function: "getSubnet",
  method: "GET",
  path: "/api/{version}/subnets/{id}",
  handler: "handlers/provisioning/subnets/get",
  data: { read: ["subnets"] },
  summary: `${OWN}one subnet`,
  request: { params: check.SubnetParams, query: check.Query },
  responses: { 200: "Subnet", 401: "RackhdError", 404: "RackhdError" },
});

export const patchSubnet = /* @__PURE__ */ provisioningRoute({
  function: "patchSubnet",
  method: "PATCH",
  path: "/api/{version}/subnets/{id}",
  handler: "handlers/provisioning/subnets/patch",
  data: { read: ["sites"], write: ["addresses", "subnets"] },
  idempotent: true,
  summary: `${OWN}change a subnet (checked whole again; null removes an optional field); 409 for a change of its CIDR, ranges or site while it has given addresses`,
  request: { params: check.SubnetParams, query: check.Query, body: check.SubnetPatchBody },
  responses: { 200: "Subnet", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError", 409: "RackhdError" },
});

export const deleteSubnet = /* @__PURE__ */ provisioningRoute({
  function: "deleteSubnet",
  method: "DELETE",
  path: "/api/{version}/subnets/{id}",
  handler: "handlers/provisioning/subnets/remove",
  data: { write: ["addresses", "subnets"] },
  summary: `${OWN}delete a subnet (204); 409 while it has given addresses`,
  request: { params: check.SubnetParams, query: check.Query },
  responses: { 204: "NoContent", 401: "RackhdError", 404: "RackhdError", 409: "RackhdError" },
});

export const listSubnetAddresses = /* @__PURE__ */ provisioningRoute({
  function: "listSubnetAddresses",
  method: "GET",
  path: "/api/{version}/subnets/{id}/addresses",
  handler: "handlers/provisioning/subnets/addresses",
  data: { read: ["addresses", "subnets"] },
  summary: `${OWN}the subnet's given addresses in address order, each with its node and interface; ?limit=N pages (Link rel="next")`,
  paged: true,
  request: { params: check.SubnetParams, query: check.Query },
  responses: { 200: "AddressAllocationList", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});
