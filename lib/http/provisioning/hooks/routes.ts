import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/**
 * Web hooks: RackHD 2.0's routes (`/api/2.0/hooks`, also under the service's other versions),
 * with this service's additions: the events a hook wants, its signing secret (answered at creation
 * and rotation only), a test delivery and its recent deliveries (routes see lib/http/routes).
 */

export const listHooks = /* @__PURE__ */ provisioningRoute({
  function: "listHooks",
  method: "GET",
  path: "/api/{version}/hooks",
  handler: "handlers/provisioning/hooks/list",
  data: { read: ["hooks"] },
  summary: "Every web hook (RackHD 2.0), with its state (failing since, disabled); never its secret",
  request: { params: check.HooksParams, query: check.Query },
  responses: { 200: "HookList", 401: "RackhdError" },
});

export const createHook = /* @__PURE__ */ provisioningRoute({
  function: "createHook",
  method: "POST",
  path: "/api/{version}/hooks",
  handler: "handlers/provisioning/hooks/create",
  data: { write: ["hooks"] },
  summary:
    "Register a web hook (RackHD 2.0: url, name, filters; 409 when the url is registered) and the events it wants; its signing secret (Standard Webhooks) is in this answer only",
  request: { params: check.HooksParams, query: check.Query, body: check.HookBody },
  responses: { 201: "HookWithSecret", 400: "RackhdError", 401: "RackhdError", 409: "RackhdError", 503: "RackhdError" },
});

export const getHook = /* @__PURE__ */ provisioningRoute({
  function: "getHook",
  method: "GET",
  path: "/api/{version}/hooks/{id}",
  handler: "handlers/provisioning/hooks/get",
  data: { read: ["hooks"] },
  summary: "One web hook (RackHD 2.0)",
  request: { params: check.HookParams, query: check.Query },
  responses: { 200: "Hook", 401: "RackhdError", 404: "RackhdError" },
});

export const patchHook = /* @__PURE__ */ provisioningRoute({
  function: "patchHook",
  method: "PATCH",
  path: "/api/{version}/hooks/{id}",
  handler: "handlers/provisioning/hooks/patch",
  data: { write: ["hooks"] },
  summary: "Change a web hook (RackHD 2.0; 409 when the new url is another hook's); enabled: true takes back a hook its failures disabled",
  request: { params: check.HookParams, query: check.Query, body: check.HookPatchBody },
  responses: { 200: "Hook", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError", 409: "RackhdError" },
});

export const deleteHook = /* @__PURE__ */ provisioningRoute({
  function: "deleteHook",
  method: "DELETE",
  path: "/api/{version}/hooks/{id}",
  handler: "handlers/provisioning/hooks/remove",
  data: { write: ["hooks"] },
  summary: "Delete a web hook (204, RackHD 2.0); its queued deliveries are dropped",
  request: { params: check.HookParams, query: check.Query },
  responses: { 204: "NoContent", 401: "RackhdError", 404: "RackhdError" },
});

export const rotateHookSecret = /* @__PURE__ */ provisioningRoute({
  function: "rotateHookSecret",
  method: "POST",
  path: "/api/{version}/hooks/{id}/secret",
  handler: "handlers/provisioning/hooks/rotate",
  data: { write: ["hooks"] },
  summary:
    "This service's own: a new signing secret, in this answer only; for a day deliveries carry both signatures, the new and the previous",
  request: { params: check.HookParams, query: check.Query },
  responses: { 200: "HookWithSecret", 401: "RackhdError", 404: "RackhdError", 503: "RackhdError" },
});

export const testHook = /* @__PURE__ */ provisioningRoute({
  function: "testHook",
  method: "POST",
  path: "/api/{version}/hooks/{id}/test",
  handler: "handlers/provisioning/hooks/test",
  data: { read: ["hooks"], write: ["deliveries"] },
  summary:
    "This service's own: POST a signed hook.test event to the hook now, once, and answer how it went (the receiver's status, or why none came)",
  request: { params: check.HookParams, query: check.Query },
  responses: { 200: "Delivery", 401: "RackhdError", 404: "RackhdError", 503: "RackhdError" },
});

export const listHookDeliveries = /* @__PURE__ */ provisioningRoute({
  function: "listHookDeliveries",
  method: "GET",
  path: "/api/{version}/hooks/{id}/deliveries",
  handler: "handlers/provisioning/hooks/deliveries",
  data: { read: ["hooks", "deliveries"] },
  summary:
    "This service's own: the hook's latest delivery attempts (a week's, 100 at most), newest first, with their status and next attempt",
  request: { params: check.HookParams, query: check.Query },
  responses: { 200: "DeliveryList", 401: "RackhdError", 404: "RackhdError" },
});
