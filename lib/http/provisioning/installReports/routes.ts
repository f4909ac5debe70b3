import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";
import { withProgress } from "../shared/dataAccess";

/** What machines report about their install (cloud-init's webhook format, their logs), and the timeline operators read: routes. */

export const postReport = /* @__PURE__ */ provisioningRoute({
  function: "postReport",
  method: "POST",
  path: "/api/{version}/reports/{credential}",
  handler: "handlers/provisioning/installReports/postReport",
  auth: "boot",
  data: withProgress({ read: ["instances"], write: ["installReports", "lookups"], logBytes: "write" }),
  summary:
    "One event from the machine holding the credential, in cloud-init's webhook format (`event_type` start/progress/finish, `name`, `description`, `result`, `timestamp`, optional `files`): kept in its install's timeline (200 an install: past that, its first 50 and its latest), applied to its waiting install task (a stage finishing FAIL fails it with the machine's words); 404 for a credential that is not the node's",
  request: { params: check.ReportParams, query: check.Query, body: check.ReportEvent },
  responses: { 200: "ReportReceipt", 400: "RackhdError", 401: "RackhdError", 404: "RackhdError", 413: "RackhdError" },
});

export const postLogChunk = /* @__PURE__ */ provisioningRoute({
  function: "postLogChunk",
  method: "POST",
  path: "/api/{version}/reports/{credential}/logs/{name}",
  handler: "handlers/provisioning/installReports/postLogChunk",
  auth: "boot",
  fileBody: true,
  data: { read: ["instances", "nodes", "workflows"], write: ["installReports"], logBytes: "write" },
  summary:
    "One chunk (`?seq=`, from 1) of the log `name` from the machine holding the credential: text of at most 256 KiB in the body, or `?size=` and no body → 307 to a presigned URL for a larger one (up to 16 MiB). Each chunk is accepted once (again: 200, `duplicate`); an install keeps at most 200 chunks and 64 MiB, for 14 days",
  request: { params: check.LogChunkParams, query: check.LogChunkQuery },
  responses: {
    201: "LogChunkReceipt",
    200: "LogChunkReceipt",
    307: "LogRedirect",
    400: "RackhdError",
    401: "RackhdError",
    404: "RackhdError",
    413: "RackhdError",
  },
});

export const nodeTimeline = /* @__PURE__ */ provisioningRoute({
  function: "nodeTimeline",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/timeline",
  handler: "handlers/provisioning/installReports/timeline",
  data: withProgress({ read: ["installReports", "instances"] }),
  summary:
    "What the node's machine did and when, oldest first: its latest workflow's steps (booted, fetched its install script, installer started, installed, first boot finished) and how each task ended, the events it reported, the logs it uploaded; with the workflow's failure (reason, task, when)",
  request: { params: check.NodeParams, query: check.Query },
  responses: { 200: "Timeline", 401: "RackhdError", 404: "RackhdError" },
});

export const getInstallLog = /* @__PURE__ */ provisioningRoute({
  function: "getInstallLog",
  method: "GET",
  path: "/api/{version}/nodes/{identifier}/install-logs/{name}",
  handler: "handlers/provisioning/installReports/getLog",
  data: { read: ["installReports", "instances"], logBytes: "read" },
  summary:
    "A log the node's current install uploaded, its parts joined in order (`?seq=` for one part); 404 when it sent none of that name",
  request: { params: check.InstallLogParams, query: check.InstallLogQuery },
  responses: { 200: "InstallLogText", 401: "RackhdError", 404: "RackhdError", 413: "RackhdError" },
});
