/**
 * The task service's schemas: JSON Schema literals, the one source of the run-time check (compiled
 * ahead of time into validators.generated.ts), the TypeScript types (FromSchema) and the docs.
 * `x-error` is the contract's text for a value that fails at that node (`x-errors` per keyword).
 */

/** Longest title and description a task may hold (a DynamoDB item holds 400 KB). */
export const TITLE_MAX = 1_000;
export const DESCRIPTION_MAX = 10_000;

const title = {
  type: "string",
  maxLength: TITLE_MAX,
  "x-error": "title is required and must be a string",
  "x-errors": { maxLength: "title must be at most 1000 characters" },
} as const;
const description = {
  type: "string",
  maxLength: DESCRIPTION_MAX,
  "x-error": "description must be a string",
  "x-errors": { maxLength: "description must be at most 10000 characters" },
} as const;

/** `{id}`: decimal digits, leading zeros allowed (as in Flask); anything else names no task. */
export const TaskIdParams = {
  type: "object",
  properties: { id: { type: "string", pattern: "^[0-9]{1,16}$" } },
  required: ["id"],
} as const;

/** POST body: unknown fields are ignored; `done` is always false on create. */
export const NewTaskBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: { title, description },
  required: ["title"],
  examples: [{ title: "Buy groceries", description: "Milk, Cheese" }],
} as const;

/** PUT body: only the fields sent change; `done` must be a real boolean. */
export const TaskPatchBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: {
    title: {
      type: "string",
      maxLength: TITLE_MAX,
      "x-error": "title must be a string",
      "x-errors": { maxLength: "title must be at most 1000 characters" },
    },
    description,
    done: { type: "boolean", "x-error": "done must be a boolean" },
  },
  examples: [{ done: true }],
} as const;

/** A task as answered: `id`, or `uri` in its place under the public form. */
const presentedTask = {
  type: "object",
  description:
    "A task as answered. TASKS_PUBLIC_FORM picks where `uri` (the absolute URL of GET /tasks/{id}) replaces `id`: `list` (the default) in the list answer, `all` in every answer, `off` nowhere.",
  properties: {
    id: { type: "integer", minimum: 1 },
    uri: { type: "string", pattern: "^https?://[^/]+.*/todo/api/v1\\.0/tasks/[0-9]+$" },
    title: { type: "string" },
    description: { type: "string" },
    done: { type: "boolean" },
  },
  required: ["title", "description", "done"],
  oneOf: [{ required: ["id"] }, { required: ["uri"] }],
  additionalProperties: false,
} as const;

export const PresentedTask = presentedTask;

export const TaskEnvelope = {
  type: "object",
  properties: { task: presentedTask },
  required: ["task"],
  additionalProperties: false,
} as const;

export const TaskListEnvelope = {
  type: "object",
  properties: { tasks: { type: "array", items: presentedTask } },
  required: ["tasks"],
  additionalProperties: false,
} as const;

export const DeleteResult = {
  type: "object",
  properties: { result: { const: true } },
  required: ["result"],
  additionalProperties: false,
} as const;

/** Every task-service error: `{"error": title}`, with the reason in `message` for some 400s. */
export const TaskError = {
  type: "object",
  properties: { error: { type: "string" }, message: { type: "string" } },
  required: ["error"],
  additionalProperties: false,
} as const;

// The documentation answers, shared by both services.
export { Html, OpenApiDocument, Query, ViewerScript } from "../schemas/common";
