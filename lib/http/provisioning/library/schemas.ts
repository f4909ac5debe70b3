import { isoTime, notFoundAs } from "../fields";

/** The template and profile library (RackHD 1.1 §9): schemas. */

const libraryEntry = {
  type: "object",
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    contents: { type: "string" },
    scope: { const: "global" },
    createdAt: isoTime,
    updatedAt: isoTime,
  },
  required: ["id", "name", "contents", "scope", "createdAt", "updatedAt"],
  additionalProperties: false,
} as const;

/** A template or profile of the library. */
export const LibraryEntry = libraryEntry;

export const LibraryList = { type: "array", items: libraryEntry } as const;

/** A library entry's 404: RackHD's `{"error":"Not Found"}`. */
export const LibraryNotFound = notFoundAs("Not Found");
