import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";
import { withProgress } from "../shared/dataAccess";

/** cloud-init's NoCloud datasource for installed systems, and each machine's instance credential and user-data: routes. */

export const nocloudSeed = /* @__PURE__ */ provisioningRoute({
  function: "nocloudSeed",
  method: "GET",
  path: "/api/{version}/nocloud/{credential}/{path+}",
  handler: "handlers/provisioning/cloudInit/seed",
  auth: "boot",
  data: withProgress({ read: ["instances", "nodes", "subnets"] }),
  summary:
    "cloud-init's NoCloud datasource (`ds=nocloud;s=<seedUrl>`) for the machine holding the credential: `meta-data` (instance id, host name, SSH keys), `user-data` (its own, else an empty `#cloud-config`), `vendor-data` (reporting to the service), `network-config` (netplan v2: its network plan, else DHCP on its MACs); the EC2-style tree under `latest/` and `2009-04-04/` (other dated versions 404 at once); the Ubuntu installer's seed under `autoinstall/`; 404 for a credential that is not one of the node's",
  request: { params: check.SeedParams, query: check.Query },
  responses: { 200: "Script", 401: "RackhdError", 404: "RackhdError" },
});

export const issueInstanceCredential = /* @__PURE__ */ provisioningRoute({
  function: "issueInstanceCredential",
  method: "POST",
  path: "/api/{version}/nodes/{identifier}/instance-credential",
  handler: "handlers/provisioning/cloudInit/issueCredential",
  data: { write: ["instances"] },
  summary:
    "A new instance credential for the node's installed system, shown once with its seed URL; the one before stops working; `reinstall: true` gives it a new instance id, so cloud-init runs as on a first boot",
  request: { params: check.NodeParams, query: check.Query, body: check.InstanceCredentialBody, bodyOptional: true },
  responses: { 201: "InstanceCredential", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const putUserData = /* @__PURE__ */ provisioningRoute({
  function: "putUserData",
  method: "PUT",
  path: "/api/{version}/nodes/{identifier}/user-data",
  handler: "handlers/provisioning/cloudInit/putUserData",
  data: { write: ["instances"] },
  summary:
    "Set (or, with `null`, remove) the user-data the node's installed system gets from its seed; 200 with whether it is set, its size and hash, never its text",
  request: { params: check.NodeParams, query: check.Query, body: check.UserDataBody },
  responses: { 200: "UserDataStatus", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError" },
});

export const getUserData = /* @__PURE__ */ provisioningRoute({
  function: "getUserData",
  permission: "operate" /* what it answers may hold a secret */,
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/user-data",
  handler: "handlers/provisioning/cloudInit/getUserData",
  data: { read: ["instances"] },
  summary: "Whether the node has user-data, its size, hash and when it was set: never its text (it may hold secrets)",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "UserDataStatus", 401: "RackhdError", 404: "RackhdError" },
});
