import { isoTime, NAME_MAX } from "../fields";

/** The graph and task library (RackHD 1.1 §4, eras B/C): schemas. */

/** PUT /workflows/tasks: bounds only; the domain checks the five fields with RackHD's texts. */
export const TaskDefinitionBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: {
    injectableName: { type: "string", maxLength: NAME_MAX, "x-error": "injectableName (string) is required" },
    implementsTask: { type: "string", maxLength: NAME_MAX, "x-error": "implementsTask (string) is required" },
    friendlyName: { type: "string", maxLength: 1024, "x-error": "friendlyName (string) is required" },
    // null: no options (the bosh CPI sends it; RackHD stored it).
    options: { type: ["object", "null"], "x-error": "options (object) is required" },
    properties: { type: "object", "x-error": "properties (object) is required" },
  },
  examples: [
    {
      friendlyName: "Say hello",
      injectableName: "Task.Hello",
      implementsTask: "Task.Base.noop",
      options: { greeting: "hello" },
      properties: {},
    },
  ],
} as const;

/** PUT /workflows: bounds only; the domain checks the graph as RackHD B/C does, with its texts. */
export const GraphDefinitionBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  "x-errors": { required: "injectableName (string) is required" },
  properties: {
    injectableName: { type: "string", minLength: 1, maxLength: NAME_MAX, "x-error": "injectableName (string) is required" },
    friendlyName: { type: "string", maxLength: 1024, "x-error": "friendlyName (string) is required" },
    options: { type: "object", "x-error": "options (object) is required" },
    tasks: { type: "array", maxItems: 256, "x-error": "Graph.tasks ([object]) is required (at most 256 tasks)" },
  },
  required: ["injectableName"],
  examples: [
    {
      friendlyName: "Hello graph",
      injectableName: "Graph.Hello",
      options: { hello: { greeting: "hi" } },
      tasks: [
        { label: "hello", taskName: "Task.Hello" },
        { label: "again", taskName: "Task.noop", waitOn: { hello: "succeeded" } },
      ],
    },
  ],
} as const;

const graph = {
  type: "object",
  properties: {
    friendlyName: { type: "string" },
    injectableName: { type: "string" },
    /** `defaults` and each task's label: that task's options. */
    options: { type: "object", additionalProperties: { type: "object" } },
    tasks: {
      type: "array",
      items: {
        type: "object",
        properties: {
          label: { type: "string" },
          taskName: { type: "string" },
          taskDefinition: { type: "object" },
          waitOn: { type: "object", additionalProperties: { type: "string" } },
        },
        required: ["label"],
        anyOf: [{ required: ["taskName"] }, { required: ["taskDefinition"] }],
      },
    },
  },
  required: ["friendlyName", "injectableName", "options", "tasks"],
} as const;

export const Graph = graph;

export const GraphList = { type: "array", items: graph } as const;

/** A task definition of the task library (RackHD era B/C). */
const libraryTask = {
  type: "object",
  properties: {
    friendlyName: { type: "string" },
    injectableName: { type: "string" },
    implementsTask: { type: "string" },
    options: { type: "object" },
    properties: { type: "object" },
  },
  required: ["friendlyName", "injectableName", "implementsTask", "options", "properties"],
  additionalProperties: false,
} as const;

export const TaskDefinitionList = { type: "array", items: libraryTask } as const;

/** PUT /workflows/tasks answers the stored definition (RackHD B/C), with when it was written. */
export const StoredTaskDefinition = {
  type: "object",
  properties: { ...libraryTask.properties, createdAt: isoTime, updatedAt: isoTime },
  required: [...libraryTask.required, "createdAt", "updatedAt"],
  additionalProperties: false,
} as const;

/** PUT /workflows answers the graph's injectableName as a JSON string. */
export const DefinedName = { type: "string" } as const;

/** GET /workflows/library/{name}: one graph, or all of them for `*`. */
export const GraphOrList = { oneOf: [graph, GraphList] } as const;
