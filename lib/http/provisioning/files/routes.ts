import type { DataAccess } from "../../../dataAccess";
import { consoleRoute, provisioningRoute } from "../../routes/entryBuilders";
import * as check from "../../schemas/validators.generated";

/**
 * What a read of the file store needs: the bytes (or their digest), and the records, which a read
 * brings up to date when an upload through a presigned URL has completed (it deletes no bytes).
 */
const FILE_READS: DataAccess = { write: ["fileIds", "files"], fileBytes: "read" };

/**
 * The file store (RackHD 1.1 §8): bytes by name, each file with a uuid. The byte reads take no
 * credentials, as RackHD served them on its southbound side to booting machines; the metadata,
 * list, put and delete do.
 */

export const putFile = /* @__PURE__ */ provisioningRoute({
  function: "putFile",
  method: "PUT",
  path: "/api/{version}/files/{name}",
  handler: "handlers/provisioning/files/put",
  data: { write: ["fileIds", "files"], fileBytes: "delete" },
  fileBody: true,
  summary:
    "Store the raw body as the file `name` (a PUT of the same name replaces its bytes and keeps its uuid); 201 with the uuid as text. " +
    "A file larger than the store takes inline: `?size=<bytes>` and no body → 307 to a presigned URL to PUT the bytes to",
  request: { params: check.NameParams, query: check.FileQuery },
  responses: { 201: "FileUuid", 307: "FileRedirect", 401: "RackhdError", 413: "RackhdError" },
});

export const getFile = /* @__PURE__ */ provisioningRoute({
  function: "getFile",
  method: "GET",
  path: "/api/{version}/files/{name}",
  handler: "handlers/provisioning/files/get",
  data: FILE_READS,
  auth: "boot",
  summary: "A file's bytes, by uuid or name; a large one → 302 to a presigned URL",
  request: { params: check.NameParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "FileBytes", 302: "FileRedirect", 404: "FileNotFound" },
});

export const deleteFile = /* @__PURE__ */ provisioningRoute({
  function: "deleteFile",
  method: "DELETE",
  path: "/api/{version}/files/{name}",
  handler: "handlers/provisioning/files/remove",
  data: { write: ["fileIds", "files"], fileBytes: "delete" },
  summary: "Delete a file, by uuid or name; 204",
  request: { params: check.NameParams, query: check.Query },
  responses: { 204: "NoContent", 401: "RackhdError", 404: "FileNotFound" },
});

export const latestFile = /* @__PURE__ */ provisioningRoute({
  function: "latestFile",
  method: "GET",
  path: "/api/{version}/files/{name}/latest",
  handler: "handlers/provisioning/files/latest",
  data: FILE_READS,
  auth: "boot",
  summary: "The bytes of the file of that name (RackHD era B/C); a large one → 302 to a presigned URL",
  request: { params: check.NameParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "FileBytes", 302: "FileRedirect", 404: "FileNotFound" },
});

export const commonFile = /* @__PURE__ */ consoleRoute({
  function: "commonFile",
  method: "GET",
  path: "/common/{name}",
  handler: "handlers/provisioning/files/common",
  data: FILE_READS,
  auth: "boot",
  // Outside both API documents, as RackHD's static file server was outside its API.
  summary:
    "The bytes of the file of that name, where RackHD's file server kept the microkernel (`{{file.server}}/common/…`); " +
    "`npm run microkernel` puts it there. A large one → 302 to a presigned URL",
  request: { params: check.FileNameParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "FileBytes", 302: "FileRedirect", 404: "FileNotFound" },
});

export const fileMd5 = /* @__PURE__ */ provisioningRoute({
  function: "fileMd5",
  method: "GET",
  path: "/api/{version}/files/md5/{name}/latest",
  handler: "handlers/provisioning/files/md5",
  data: FILE_READS,
  auth: "boot",
  summary: "The md5 of the file of that name, as a JSON string",
  request: { params: check.NameParams, query: check.Query },
  responses: { 401: "RackhdError", 200: "FileMd5", 404: "FileNotFound" },
});

export const fileMetadata = /* @__PURE__ */ provisioningRoute({
  function: "fileMetadata",
  method: "GET",
  path: "/api/{version}/files/metadata/{name}",
  handler: "handlers/provisioning/files/metadata",
  data: FILE_READS,
  summary: "The metadata of the file of that name, in an array (basename, filename, uuid, md5, sha256, size, version)",
  request: { params: check.NameParams, query: check.Query },
  responses: { 200: "FileMetadataList", 401: "RackhdError", 404: "FileNotFound" },
});

export const listFiles = /* @__PURE__ */ provisioningRoute({
  function: "listFiles",
  method: "GET",
  path: "/api/{version}/files/list/all",
  handler: "handlers/provisioning/files/list",
  data: FILE_READS,
  summary: "The metadata of every file, oldest first",
  paged: true,
  request: { params: check.VersionParams, query: check.Query },
  responses: { 200: "FileMetadataList", 401: "RackhdError" },
});
