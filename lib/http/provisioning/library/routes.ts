import { provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/** The template and profile library (RackHD 1.1 §9): raw text by name. */

export const templateLibrary = /* @__PURE__ */ provisioningRoute({
  function: "templateLibrary",
  scope: "any",
  method: "GET",
  path: "/api/{version}/templates/library",
  handler: "handlers/provisioning/library/templates",
  data: { read: ["templates"] },
  summary: "Every install template: the built-in ones (their values as `<%=tags%>`) and those put, with their text",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "LibraryList", 401: "RackhdError" },
});

export const templateLibraryEntry = /* @__PURE__ */ provisioningRoute({
  function: "templateLibraryEntry",
  scope: "any",
  method: "GET",
  path: "/api/{version}/templates/library/{name}",
  handler: "handlers/provisioning/library/template",
  data: { read: ["templates"] },
  summary: 'One template with its text; 404 `{"error":"Not Found"}`',
  request: { params: check.NameParams, query: check.Query },
  responses: { 200: "LibraryEntry", 401: "RackhdError", 404: "LibraryNotFound" },
});

export const putTemplate = /* @__PURE__ */ provisioningRoute({
  function: "putTemplate",
  rawBody: true,
  method: "PUT",
  path: "/api/{version}/templates/library/{name}",
  handler: "handlers/provisioning/library/putTemplate",
  data: { write: ["templates"] },
  summary:
    "Put a template (the raw body, any content type); the boot flow renders it from then on (`<%=repo%>`, `<%=nodeId%>`, …); 200 with the record",
  request: { params: check.NameParams, query: check.Query },
  responses: { 200: "LibraryEntry", 401: "RackhdError", 413: "RackhdError" },
});

export const deleteTemplate = /* @__PURE__ */ provisioningRoute({
  function: "deleteTemplate",
  method: "DELETE",
  path: "/api/{version}/templates/library/{name}",
  handler: "handlers/provisioning/library/deleteTemplate",
  data: { write: ["templates"] },
  summary:
    'Remove a put template (RackHD\'s templatesLibDelete): 200 with the record removed, and a built-in of that name is served again; 404 `{"error":"Not Found"}` when none was put',
  request: { params: check.NameParams, query: check.Query },
  responses: { 200: "LibraryEntry", 401: "RackhdError", 404: "LibraryNotFound" },
});

export const profileLibrary = /* @__PURE__ */ provisioningRoute({
  function: "profileLibrary",
  scope: "any",
  method: "GET",
  path: "/api/{version}/profiles/library",
  handler: "handlers/provisioning/library/profiles",
  data: { read: ["profiles"] },
  summary: "Every boot profile (iPXE): the built-in ones (their values as `<%=tags%>`) and those put, with their text",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "LibraryList", 401: "RackhdError" },
});

export const profileLibraryEntry = /* @__PURE__ */ provisioningRoute({
  function: "profileLibraryEntry",
  scope: "any",
  method: "GET",
  path: "/api/{version}/profiles/library/{name}",
  handler: "handlers/provisioning/library/profile",
  data: { read: ["profiles"] },
  summary: 'One profile as a JSON record (RackHD answered JSON, not the text); 404 `{"error":"Not Found"}`',
  request: { params: check.NameParams, query: check.Query },
  responses: { 200: "LibraryEntry", 401: "RackhdError", 404: "LibraryNotFound" },
});

export const putProfile = /* @__PURE__ */ provisioningRoute({
  function: "putProfile",
  rawBody: true,
  method: "PUT",
  path: "/api/{version}/profiles/library/{name}",
  handler: "handlers/provisioning/library/putProfile",
  data: { write: ["profiles"] },
  summary: "Put a boot profile (the raw body); a task whose `profile` option names it boots it from then on; 200 with the record",
  request: { params: check.NameParams, query: check.Query },
  responses: { 200: "LibraryEntry", 401: "RackhdError", 413: "RackhdError" },
});
