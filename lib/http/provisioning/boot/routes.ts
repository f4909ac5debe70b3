import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";
import { withProgress } from "../shared/dataAccess";

/** Southbound: what a booting machine calls (profiles, templates, the notification): routes (see lib/http/routes/index.ts for what an entry says). */

export const bootProfile = /* @__PURE__ */ provisioningRoute({
  function: "bootProfile",
  method: "GET",
  path: "/api/{version}/profiles",
  handler: "handlers/provisioning/boot/profiles",
  data: /* @__PURE__ */ withProgress({ read: ["profiles"], write: ["instances", "lookups"] }),
  auth: "boot",
  summary:
    'The iPXE script: without `?macs=`, one that collects the MACs and chains back; unknown MACs: discovery (node named after the first MAC) and a disk boot; an install task waiting: its profile; otherwise "Unable to locate active workflow." and a disk boot; a value that is not a MAC: 400. `?loader=grub`: the same as a GRUB script (a Secure Boot machine through its relay; only the microkernel and the image install have a GRUB form); `?loader=media`: a microkernel booted from virtual media asks for the rest of its kernel line (`args <word> …`, or `message <text>`); any other loader: 400',
  request: { params: check.VersionParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "Script", 400: "RackhdError" },
});

export const uefiLoader = /* @__PURE__ */ provisioningRoute({
  function: "uefiLoader",
  method: "GET",
  path: "/api/{version}/profiles/loader",
  handler: "handlers/provisioning/boot/loader",
  data: { read: ["nodes"] },
  auth: "boot",
  summary:
    "Which network loader a UEFI machine is handed (a relay's TFTP `uefi.efi` asks, by the MAC of the address asking): its node's `bootLoader`, else GRUB (`shimx64.efi`) for a machine that reported Secure Boot on, else UEFI_LOADER; iPXE is `snponly.efi`. Without `?macs=` (the relay could not tell), the setting's; a value that is not a MAC: 400",
  request: { params: check.VersionParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "UefiLoader", 400: "RackhdError" },
});

export const switchProfile = /* @__PURE__ */ provisioningRoute({
  function: "switchProfile",
  method: "GET",
  path: "/api/{version}/profiles/switch/{vendor}",
  handler: "handlers/provisioning/boot/switchProfile",
  data: /* @__PURE__ */ withProgress({ read: ["profiles"], write: ["instances", "lookups"] }),
  auth: "boot",
  summary:
    "What a switch's zero-touch provisioning fetches (cisco, arista, brocade; 400 otherwise): its waiting task's profile, else the task runner (Python) that runs its workflow's commands; the switch is known by `?macs=` or its address's lookup, and created as a `switch` node",
  request: { params: check.VendorParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "Script", 400: "RackhdError" },
});

export const nodeTemplate = /* @__PURE__ */ provisioningRoute({
  function: "nodeTemplate",
  method: "GET",
  path: "/api/{version}/templates/{name}",
  head: true,
  handler: "handlers/provisioning/boot/templates",
  data: /* @__PURE__ */ withProgress({ read: ["lookups", "templates"], write: ["instances"] }),
  auth: "boot",
  summary:
    "`centos-ks`, `ubuntu-preseed`, `pxe-cloud-config.yml`, `esx-ks`, `renasar-ansible.pub` for the node `?nodeId=` with its workflow's `?token=` (403 otherwise); with BOOT_TOKENS=off, the node found by `?nodeId=`, then `?macs=`, then the source IP that last fetched a profile (HEAD too: a completion signal)",
  request: { params: check.NameParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "Script", 400: "RackhdError", 403: "RackhdError", 404: "RackhdError" },
});

export const notification = /* @__PURE__ */ provisioningRoute({
  function: "notification",
  method: "POST",
  path: "/api/{version}/notification",
  handler: "handlers/provisioning/boot/notification",
  data: /* @__PURE__ */ withProgress(),
  auth: "boot",
  summary:
    "The node says its install is done (`?nodeId=` with its workflow's `?token=`, 403 otherwise; no token with BOOT_TOKENS=off): completes its waiting task; 201 with the message",
  request: { params: check.VersionParams, query: check.Query, body: check.NotificationBody, bodyOptional: true },
  responses: { 401: "RackhdError", 201: "NotificationEcho", 400: "RackhdError", 403: "RackhdError", 404: "RackhdError" },
});
