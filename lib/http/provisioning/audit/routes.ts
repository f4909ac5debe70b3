import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/** The audit trail (issue 55; this service's own): read by a viewer of every site. */
export const readAudit = /* @__PURE__ */ provisioningRoute({
  function: "readAudit",
  method: "GET",
  path: "/api/{version}/audit",
  handler: "handlers/provisioning/audit/list",
  data: { read: ["audit"] },
  summary:
    "The audit trail, newest first: every change and every refused request (who, which action on what, when, from where, the status); ?actor=&node=&site=&since=, paged by ?limit= and the Link header's next",
  request: { params: check.AuditParams, query: check.AuditQuery },
  responses: { 200: "AuditList", 400: "RackhdError", 401: "RackhdError" },
});
