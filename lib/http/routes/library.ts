import * as check from "../schemas/validators.generated";
import type { Endpoint } from "./endpoint";

/** The template and profile library (RackHD 1.1 §9): raw text by name. Entries as in provisioning.ts. */

export const templateLibrary = {
  function: "templateLibrary",
  method: "GET",
  path: "/api/{version}/templates/library",
  handler: "handlers/provisioning/library/templates",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "Every install template: the built-in ones (their values as `<%=tags%>`) and those put, with their text",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "LibraryList", 401: "RackhdError" },
} as const satisfies Endpoint;

export const templateLibraryEntry = {
  function: "templateLibraryEntry",
  method: "GET",
  path: "/api/{version}/templates/library/{name}",
  handler: "handlers/provisioning/library/template",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: 'One template with its text; 404 `{"error":"Not Found"}`',
  request: { params: check.NameParams, query: check.Query },
  responses: { 200: "LibraryEntry", 401: "RackhdError", 404: "LibraryNotFound" },
} as const satisfies Endpoint;

export const putTemplate = {
  function: "putTemplate",
  method: "PUT",
  path: "/api/{version}/templates/library/{name}",
  handler: "handlers/provisioning/library/putTemplate",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary:
    "Put a template (the raw body, any content type); the boot flow renders it from then on (`<%=repo%>`, `<%=nodeId%>`, …); 200 with the record",
  request: { params: check.NameParams, query: check.Query },
  responses: { 200: "LibraryEntry", 401: "RackhdError", 413: "RackhdError" },
} as const satisfies Endpoint;

export const profileLibrary = {
  function: "profileLibrary",
  method: "GET",
  path: "/api/{version}/profiles/library",
  handler: "handlers/provisioning/library/profiles",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: "Every boot profile (iPXE): the built-in ones (their values as `<%=tags%>`) and those put, with their text",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "LibraryList", 401: "RackhdError" },
} as const satisfies Endpoint;

export const profileLibraryEntry = {
  function: "profileLibraryEntry",
  method: "GET",
  path: "/api/{version}/profiles/library/{name}",
  handler: "handlers/provisioning/library/profile",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningRead",
  summary: 'One profile as a JSON record (RackHD answered JSON, not the text); 404 `{"error":"Not Found"}`',
  request: { params: check.NameParams, query: check.Query },
  responses: { 200: "LibraryEntry", 401: "RackhdError", 404: "LibraryNotFound" },
} as const satisfies Endpoint;

export const putProfile = {
  function: "putProfile",
  method: "PUT",
  path: "/api/{version}/profiles/library/{name}",
  handler: "handlers/provisioning/library/putProfile",
  service: "provisioning",
  auth: "northbound",
  access: "provisioningWrite",
  summary: "Put a boot profile (the raw body); a task whose `profile` option names it boots it from then on; 200 with the record",
  request: { params: check.NameParams, query: check.Query },
  responses: { 200: "LibraryEntry", 401: "RackhdError", 413: "RackhdError" },
} as const satisfies Endpoint;
