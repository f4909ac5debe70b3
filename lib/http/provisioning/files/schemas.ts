import { queryValues } from "../../schemas/common";
import { name, notFoundAs } from "../fields";

/** The file store (RackHD 1.1 §8): schemas. */

/** A file name outside the versioned API (/common/{name}). */
export const FileNameParams = {
  type: "object",
  properties: { name },
  required: ["name"],
} as const;

/** PUT /files/{name}: `?size=<bytes>` with no body asks where to upload a large file. */
export const FileQuery = {
  type: "object",
  maxProperties: 64,
  "x-error": "Query string has more than 64 parameters",
  properties: {
    size: {
      type: "array",
      maxItems: 1,
      items: { type: "string", pattern: "^(0|[1-9][0-9]{0,10})$" },
      "x-error": "size must be the file's length in bytes, once",
    },
  },
  additionalProperties: queryValues,
} as const;

const hex = (length: number) => ({ type: "string", pattern: `^[0-9a-f]{${length}}$` }) as const;

const uuid = { type: "string", pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$" } as const;

/** RackHD's metadata of a file, with its size in bytes. */
const fileMetadata = {
  type: "object",
  properties: {
    basename: { type: "string" },
    filename: { type: "string" },
    uuid,
    md5: hex(32),
    sha256: hex(64),
    size: { type: "integer", minimum: 0 },
    version: { const: 0 },
  },
  required: ["basename", "filename", "uuid", "md5", "sha256", "size", "version"],
  additionalProperties: false,
} as const;

export const FileMetadataList = { type: "array", items: fileMetadata } as const;

/** A file's bytes, as stored. */
export const FileBytes = { type: "string" } as const;

/** The uuid of the file stored, as text (RackHD's answer to a PUT). */
export const FileUuid = uuid;

/** A file's md5, as a JSON string. */
export const FileMd5 = hex(32);

/** Where to send a large file's bytes (PUT), or where to get them (GET): the `Location` too. */
export const FileRedirect = {
  type: "object",
  properties: {
    location: { type: "string" },
    uuid,
    expiresInSeconds: { type: "integer", minimum: 1 },
  },
  required: ["location"],
  additionalProperties: false,
} as const;

/** The file routes' 404: RackHD's `{"error":"File not found."}`. */
export const FileNotFound = notFoundAs("File not found.");
