import { queryValues } from "./common";

/**
 * The provisioning service's schemas (RackHD 1.1): JSON Schema literals, the one source of the
 * run-time check, the TypeScript types and the docs. `x-error` is the contract's text for a value
 * that fails at that node (`x-errors` per keyword). Every string and array is bounded, so that no
 * input reaches a store that cannot hold it (a DynamoDB key holds at most 1 KB).
 */

/** Longest node identifier, graph, template or service name accepted anywhere. */
export const NAME_MAX = 255;
export const IDENTIFIERS_MAX = 64;
/** Most tags a node carries (each is an index item written with the node, in one transaction). */
export const NODE_TAGS_MAX = 32;

// Path parameters. A value out of bounds names nothing: the route answers 404.

const version = { enum: ["1.1", "current", "common"] } as const;
const name = { type: "string", minLength: 1, maxLength: NAME_MAX } as const;

export const VersionParams = {
  type: "object",
  properties: { version },
  required: ["version"],
} as const;

export const NodeParams = {
  type: "object",
  properties: { version, identifier: name },
  required: ["version", "identifier"],
} as const;

export const ObmServiceParams = {
  type: "object",
  properties: { version, service: name },
  required: ["version", "service"],
} as const;

/** A graph or a template by name. */
export const NameParams = {
  type: "object",
  properties: { version, name },
  required: ["version", "name"],
} as const;

/** A file name outside the versioned API (/common/{name}). */
export const FileNameParams = {
  type: "object",
  properties: { name },
  required: ["name"],
} as const;

export const VendorParams = {
  type: "object",
  properties: { version, vendor: name },
  required: ["version", "vendor"],
} as const;

export const WorkflowIdParams = {
  type: "object",
  properties: { version, id: name },
  required: ["version", "id"],
} as const;

/** A catalog or SKU by id. */
export const IdParams = {
  type: "object",
  properties: { version, id: name },
  required: ["version", "id"],
} as const;

export const NodeSourceParams = {
  type: "object",
  properties: { version, identifier: name, source: name },
  required: ["version", "identifier", "source"],
} as const;

export const TagParams = {
  type: "object",
  properties: { version, name },
  required: ["version", "name"],
} as const;

export const NodeTagParams = {
  type: "object",
  properties: { version, identifier: name, tag: name },
  required: ["version", "identifier", "tag"],
} as const;

// Bodies.

const obmSetting = {
  type: "object",
  "x-error": "OBM setting must be an object with service and config",
  properties: {
    service: { type: "string", minLength: 1, maxLength: NAME_MAX, "x-error": "OBM setting needs a service name" },
    config: { type: "object", maxProperties: 64, "x-error": "OBM config must be an object with at most 64 keys" },
  },
  required: ["service"],
} as const;

/** POST /nodes/{id}/obm: one `{service, config}` or an array of them. */
export const ObmSettingsBody = {
  type: ["object", "array"],
  "x-error": "OBM setting must be an object with service and config",
  if: { type: "array" },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keyword, not a thenable.
  then: {
    type: "array",
    minItems: 1,
    maxItems: 16,
    items: obmSetting,
    "x-errors": { minItems: "At least one OBM setting is required", maxItems: "At most 16 OBM settings at a time" },
  },
  else: obmSetting,
  examples: [{ service: "noop-obm-service", config: {} }],
} as const;

const nodeFields = {
  name: {
    type: "string",
    minLength: 1,
    maxLength: NAME_MAX,
    "x-error": "JSON Schema Violation: name must be a non-empty string of at most 255 characters",
  },
  type: {
    enum: ["compute", "switch", "dae", "pdu", "mgmt", "enclosure"],
    "x-error": "JSON Schema Violation: type must be one of compute, switch, dae, pdu, mgmt, enclosure",
  },
  identifiers: {
    type: "array",
    maxItems: IDENTIFIERS_MAX,
    items: { type: "string", minLength: 1, maxLength: NAME_MAX },
    "x-error": "JSON Schema Violation: identifiers must be an array of at most 64 strings of 1 to 255 characters",
  },
  autoDiscover: {
    // RackHD's clients (FIT) send the strings "true"/"false"; RackHD took them.
    anyOf: [{ type: "boolean" }, { enum: ["true", "false"] }],
    "x-error": "JSON Schema Violation: autoDiscover must be a boolean",
  },
  obmSettings: {
    type: "array",
    maxItems: 16,
    items: obmSetting,
    "x-error": "JSON Schema Violation: obmSettings must be an array of at most 16 settings",
  },
  tags: {
    type: "array",
    maxItems: NODE_TAGS_MAX,
    items: { type: "string", minLength: 1, maxLength: NAME_MAX },
    "x-error": `JSON Schema Violation: tags must be an array of at most ${NODE_TAGS_MAX} names of 1 to 255 characters`,
  },
  relations: { type: "array", maxItems: 256, "x-error": "JSON Schema Violation: relations must be an array of at most 256 entries" },
  sku: { type: ["string", "null"], maxLength: NAME_MAX, "x-error": "JSON Schema Violation: sku must be a string or null" },
} as const;

/** PATCH /nodes/{id}: any subset; a whole node echoed back is accepted (id and times are ignored). */
export const NodePatchBody = {
  type: "object",
  "x-error": "JSON Schema Violation: body must be a JSON object",
  properties: nodeFields,
} as const;

/** POST /nodes: the fields of a PATCH with `name` required; a client may choose the id. */
export const NewNodeBody = {
  type: "object",
  "x-error": "JSON Schema Violation: body must be a JSON object",
  "x-errors": { required: "JSON Schema Violation: name is required" },
  allOf: [NodePatchBody],
  properties: {
    id: { type: "string", pattern: "^[0-9a-fA-F]{24}$", "x-error": "JSON Schema Violation: id must be 24 hexadecimal characters" },
  },
  required: ["name"],
} as const;

/** POST /nodes/{id}/workflows: the name may come from `?name=` instead; the domain checks both in RackHD's order. */
export const StartWorkflowBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: {
    name: { type: "string", maxLength: NAME_MAX, "x-error": "Graph name is missing or in wrong format" },
    options: {},
  },
  examples: [
    {
      name: "Graph.InstallCentOS",
      options: {
        defaults: { obmServiceName: "noop-obm-service" },
        "install-os": { version: "7.0", repo: "{{api.server}}/Centos/7.0", rootPassword: "root" },
      },
    },
  ],
} as const;

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

/**
 * POST /tasks/{identifier}: RackHD answered 201 to any JSON body and used what it could (the
 * command object with its `tasks`); so any JSON is taken here, and the domain picks out the
 * results it can use.
 */
export const CommandResultsBody = {
  description: "The command object handed out, with each command's stdout, stderr and error; any other JSON is taken and ignored",
  examples: [{ identifier: "5f2a1c3b4d5e6f7a8b9c0d1e", tasks: [{ cmd: "sudo dmidecode", stdout: "...", stderr: "", error: null }] }],
} as const;

const rule = {
  type: "object",
  properties: { path: { type: "string", maxLength: 1024 } },
  // The rule keys (equals, contains, …): the domain checks them against anchor's list.
  additionalProperties: true,
  maxProperties: 32,
} as const;

const rules = {
  type: "array",
  maxItems: 64,
  items: rule,
  "x-error": "rules ([object]) is required: an array of at most 64 rules",
} as const;

/** POST /skus: name and rules required (the domain checks each rule key); other keys are kept. */
export const SkuBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  "x-errors": { required: "name (string) and rules ([object]) are required" },
  properties: {
    name: { type: "string", minLength: 1, maxLength: 1024, "x-error": "name (string) is required" },
    rules,
    discoveryGraphName: { type: "string", maxLength: NAME_MAX, "x-error": "discoveryGraphName must be a graph name" },
    discoveryGraphOptions: { type: "object", "x-error": "discoveryGraphOptions must be an object" },
  },
  required: ["name", "rules"],
  examples: [
    {
      name: "Noop OBM settings for VirtualBox nodes",
      discoveryGraphName: "Graph.noop-example",
      discoveryGraphOptions: {},
      rules: [{ path: "dmi.System Information.Product Name", equals: "VirtualBox" }],
    },
  ],
} as const;

/** PATCH /skus/{id}: any of the fields. */
export const SkuPatchBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: SkuBody.properties,
  examples: [{ name: "test3" }],
} as const;

/** POST /tags: a name and rules (the same rule language as SKUs). */
export const TagBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  "x-errors": { required: "name (string) and rules ([object]) are required" },
  properties: {
    name: { type: "string", minLength: 1, maxLength: NAME_MAX, "x-error": "name (string) is required" },
    rules,
  },
  required: ["name", "rules"],
  examples: [{ name: "virtualbox", rules: [{ path: "dmi.System Information.Product Name", equals: "VirtualBox" }] }],
} as const;

/** PATCH /nodes/{id}/tags: tags to add; a body without `tags` changes nothing (204). */
export const NodeTagsBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: {
    tags: {
      type: "array",
      maxItems: NODE_TAGS_MAX,
      items: { type: "string", minLength: 1, maxLength: NAME_MAX },
      "x-error": `tags must be an array of at most ${NODE_TAGS_MAX} names of 1 to 255 characters`,
    },
  },
  examples: [{ tags: ["dockermachine"] }],
} as const;

const macAddress = {
  type: "string",
  pattern: "^([0-9A-Fa-f]{2}[:-]){5}([0-9A-Fa-f]{2})$",
  "x-error": "macAddress must be a MAC address such as 08:00:27:27:eb:12",
} as const;
const ipAddress = {
  type: "string",
  pattern: "^((25[0-5]|2[0-4]\\d|1?\\d?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1?\\d?\\d)$",
  "x-error": "ipAddress must be an IPv4 address",
} as const;

/** POST /lookups (RackHD's V1.Lookup: macAddress required). */
export const LookupBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  "x-errors": { required: "macAddress is required" },
  properties: { macAddress, ipAddress, node: { type: "string", maxLength: NAME_MAX, "x-error": "node must be a node id" } },
  required: ["macAddress"],
  examples: [{ macAddress: "08:00:27:27:eb:12", ipAddress: "172.31.128.9", node: "6d981c9449891790862c36b1" }],
} as const;

/** PATCH /lookups/{id}: any of the fields. */
export const LookupPatchBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: LookupBody.properties,
  examples: [{ ipAddress: "172.31.128.10" }],
} as const;

/** PATCH /config: top-level keys to set. */
export const ConfigPatchBody = {
  type: "object",
  "x-error": "Body must be a JSON object of config keys",
  maxProperties: 64,
  examples: [{ logColorEnable: true }],
} as const;

/** POST /nodes/{id}/ssh (RackHD's V1.Ssh); the domain checks what it needs, with RackHD's text. */
export const SshBody = {
  type: "object",
  "x-error": "Invalid SSH body",
  properties: {
    host: { type: "string", maxLength: NAME_MAX, "x-error": "Invalid SSH body" },
    user: { type: "string", maxLength: NAME_MAX, "x-error": "Invalid SSH body" },
    password: { type: "string", maxLength: 1024, "x-error": "Invalid SSH body" },
    privateKey: { type: "string", maxLength: 16384, "x-error": "Invalid SSH body" },
    publicKey: { type: "string", maxLength: 16384, "x-error": "Invalid SSH body" },
  },
  examples: [{ host: "172.31.128.9", user: "root", password: "RackHDRocks!" }],
} as const;

/** POST /nodes/{id}/obm/identify: `{"value": …}`, any truthy value turns the light on. */
export const IdentifyBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: { value: {} },
  examples: [{ value: true }],
} as const;

const pollerFields = {
  type: { enum: ["ipmi", "snmp", "redfish"], "x-error": "type must be one of ipmi, snmp, redfish" },
  name: { type: "string", maxLength: NAME_MAX, "x-error": "name must be a poller name such as Pollers.IPMI" },
  pollInterval: { type: "integer", minimum: 1, "x-error": "pollInterval (integer, milliseconds) is required" },
  node: { type: ["string", "null"], maxLength: NAME_MAX, "x-error": "node must be a node id or null" },
  config: { type: "object", maxProperties: 64, "x-error": "config must be an object" },
  paused: { type: "boolean", "x-error": "paused must be true or false" },
} as const;

/** POST /pollers (RackHD's deserializer keeps only these). */
export const PollerBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  "x-errors": { required: "pollInterval (integer, milliseconds) is required" },
  properties: pollerFields,
  required: ["pollInterval"],
  examples: [{ type: "ipmi", node: "6d981c9449891790862c36b1", pollInterval: 60000, config: { command: "sdr" } }],
} as const;

/** PATCH /pollers/{id}. */
export const PollerPatchBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: pollerFields,
  examples: [{ paused: true }],
} as const;

/** POST /notification: any message; `nodeId` names the node whose install is done. */
export const NotificationBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: { nodeId: { type: "string", minLength: 1, maxLength: NAME_MAX, "x-error": "Invalid node ID in query or body" } },
} as const;

// Responses (documented, and checked against every answer in the handler tests).

const isoTime = { type: "string", pattern: "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$" } as const;
const objectId = { type: "string", pattern: "^[0-9a-f]{24}$" } as const;

const presentedObmSetting = {
  type: "object",
  properties: { service: { type: "string" }, config: { type: "object" } },
  required: ["service", "config"],
} as const;

const obmSettingList = { type: "array", items: presentedObmSetting } as const;
export const ObmSettingList = obmSettingList;

const node = {
  type: "object",
  properties: {
    id: objectId,
    name: { type: "string" },
    identifiers: { type: "array", items: { type: "string" } },
    type: { enum: ["compute", "switch", "dae", "pdu", "mgmt", "enclosure"] },
    obmSettings: obmSettingList,
    autoDiscover: { type: "boolean" },
    sku: { type: ["string", "null"] },
    relations: { type: "array" },
    tags: { type: "array" },
    workflows: { type: "array" },
    catalogs: { type: "array" },
    createdAt: isoTime,
    updatedAt: isoTime,
  },
  required: ["id", "name", "identifiers", "type", "obmSettings", "autoDiscover", "sku", "relations", "tags", "createdAt", "updatedAt"],
} as const;

export const Node = node;
export const NodeList = { type: "array", items: node } as const;

const obmService = {
  type: "object",
  properties: { service: { type: "string" }, config: { type: "object" } },
  required: ["service", "config"],
  additionalProperties: false,
} as const;

export const ObmService = obmService;
export const ObmServiceList = { type: "array", items: obmService } as const;

const graph = {
  type: "object",
  properties: {
    friendlyName: { type: "string" },
    injectableName: { type: "string" },
    options: { type: "object" },
    tasks: {
      type: "array",
      items: {
        type: "object",
        properties: {
          label: { type: "string" },
          taskName: { type: "string" },
          taskDefinition: { type: "object" },
          waitOn: { type: "object" },
        },
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

const taskState = { enum: ["pending", "running", "succeeded", "failed", "cancelled", "timeout"] } as const;

const workflow = {
  type: "object",
  properties: {
    id: { type: "string" },
    instanceId: { type: "string" },
    name: { type: "string" },
    injectableName: { type: "string" },
    _status: { enum: ["running", "succeeded", "failed", "cancelled", "timeout"] },
    node: objectId,
    context: { type: "object", properties: { target: objectId, graphId: { type: "string" } }, required: ["graphId"] },
    definition: { type: "object" },
    tasks: {
      type: "object",
      additionalProperties: {
        type: "object",
        properties: { label: { type: "string" }, state: taskState, options: { type: "object" }, waitingOn: { type: "object" } },
        required: ["label", "state", "options", "waitingOn"],
        not: { required: ["kind"] },
      },
    },
    createdAt: isoTime,
    updatedAt: isoTime,
  },
  // A graph run with no node (POST /workflows) has no `node` and no `context.target`.
  required: ["id", "instanceId", "name", "injectableName", "_status", "context", "definition", "tasks", "createdAt", "updatedAt"],
} as const;

export const Workflow = workflow;
export const WorkflowList = { type: "array", items: workflow } as const;

/** POST /notification answers the message it was given. */
export const NotificationEcho = { type: "object" } as const;

/** GET /tasks/{identifier}: the commands for the node's microkernel. */
export const CommandSet = {
  type: "object",
  properties: {
    identifier: objectId,
    tasks: { type: "array", items: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] } },
  },
  required: ["identifier", "tasks"],
} as const;

const catalog = {
  type: "object",
  properties: { id: objectId, node: { type: "string" }, source: { type: "string" }, data: {}, createdAt: isoTime, updatedAt: isoTime },
  required: ["id", "node", "source", "data", "createdAt", "updatedAt"],
  additionalProperties: false,
} as const;

export const Catalog = catalog;
export const CatalogList = { type: "array", items: catalog } as const;

const sku = {
  type: "object",
  properties: {
    id: objectId,
    name: { type: "string" },
    rules: { type: "array", items: { type: "object" } },
    discoveryGraphName: { type: "string" },
    discoveryGraphOptions: { type: "object" },
    createdAt: isoTime,
    updatedAt: isoTime,
  },
  required: ["id", "name", "rules", "createdAt", "updatedAt"],
} as const;

export const Sku = sku;
export const SkuList = { type: "array", items: sku } as const;

const tag = {
  type: "object",
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    rules: { type: "array", items: { type: "object" } },
    createdAt: isoTime,
    updatedAt: isoTime,
  },
  required: ["id", "name", "rules", "createdAt", "updatedAt"],
  additionalProperties: false,
} as const;

export const Tag = tag;
export const TagList = { type: "array", items: tag } as const;

/** A node's tags, or the tags a PATCH added. */
export const TagNames = { type: "array", items: { type: "string" } } as const;

/** DELETE /nodes/{id}/tags/{tag} answers the tag's name as a JSON string. */
export const TagName = { type: "string" } as const;

const lookup = {
  type: "object",
  properties: {
    id: objectId,
    node: { type: "string" },
    macAddress: { type: "string" },
    ipAddress: { type: "string" },
    createdAt: isoTime,
    updatedAt: isoTime,
  },
  required: ["id", "node", "macAddress", "createdAt", "updatedAt"],
  additionalProperties: false,
} as const;

export const Lookup = lookup;
export const LookupList = { type: "array", items: lookup } as const;

/** POST /nodes/{mac}/dhcp/whitelist answers the whole list, MACs with `-`. */
export const Whitelist = { type: "array", items: { type: "string" } } as const;

/** GET /config: the service's config (secrets redacted). */
export const ServiceConfig = {
  type: "object",
  properties: {
    apiServerAddress: { type: "string" },
    apiServerPort: { type: "integer" },
    httpEndpoints: { type: "array" },
    PATH: { type: "string" },
    amqp: { type: "null" },
    mongo: { type: "null" },
    broadcastaddr: { type: "null" },
    subnetmask: { type: "null" },
  },
  // The keys FIT checks (amqp, mongo, broadcastaddr, subnetmask are null here: no such servers).
  required: ["apiServerAddress", "apiServerPort", "httpEndpoints", "PATH", "amqp", "mongo", "broadcastaddr", "subnetmask"],
  additionalProperties: true,
} as const;

/** GET /versions. */
export const VersionList = {
  type: "array",
  items: {
    type: "object",
    properties: { package: { type: "string" }, version: { type: "string" } },
    required: ["package", "version"],
    additionalProperties: false,
  },
} as const;

/** A node's SSH settings as answered: the password and private key redacted. */
export const SshSettings = {
  type: "object",
  properties: {
    host: { type: "string" },
    user: { type: "string" },
    password: { const: "REDACTED" },
    privateKey: { const: "REDACTED" },
    publicKey: { type: "string" },
  },
  required: ["host", "user"],
  additionalProperties: false,
} as const;

/** The chassis identify light as last set. */
export const IdentifyState = {
  type: "object",
  properties: { value: { type: "boolean" }, service: { type: "string" }, requestedAt: isoTime },
  required: ["value"],
  additionalProperties: false,
} as const;

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

const pollerCommon = {
  id: objectId,
  node: { type: ["string", "null"] },
  config: { type: "object" },
  pollInterval: { type: "integer", minimum: 1 },
  nextScheduled: { type: ["string", "null"] },
  lastStarted: { type: ["string", "null"] },
  lastFinished: { type: ["string", "null"] },
  leaseToken: { type: "null" },
  leaseExpires: { type: "null" },
  failureCount: { type: "integer", minimum: 0 },
  paused: { type: "boolean" },
  lastError: { type: "string" },
  createdAt: isoTime,
  updatedAt: isoTime,
} as const;

const poller = {
  type: "object",
  properties: { ...pollerCommon, type: { enum: ["ipmi", "snmp", "redfish"] } },
  required: ["id", "type", "node", "config", "pollInterval", "failureCount", "paused", "createdAt", "updatedAt"],
  additionalProperties: false,
} as const;

/** A poller as the API shows it (`type`). */
export const Poller = poller;
export const PollerList = { type: "array", items: poller } as const;

/** A poller as stored (GET /nodes/{id}/pollers: RackHD's raw work item, `name`). */
export const PollerRecordList = {
  type: "array",
  items: {
    type: "object",
    properties: { ...pollerCommon, name: { enum: ["Pollers.IPMI", "Pollers.SNMP", "Pollers.REDFISH"] } },
    required: ["id", "name", "node", "config", "pollInterval", "failureCount", "paused", "createdAt", "updatedAt"],
    additionalProperties: false,
  },
} as const;

/** A poller's samples: RackHD's result keys plus `timestamp`. */
export const PollerSampleList = {
  type: "array",
  items: { type: "object", properties: { timestamp: { type: "string" } }, required: ["timestamp"] },
} as const;

const pollerType = {
  type: "object",
  properties: { name: { type: "string" }, node: { type: "boolean" }, config: { type: "array", items: { type: "object" } } },
  required: ["name", "config"],
} as const;

export const PollerType = pollerType;
export const PollerLibrary = { type: "array", items: pollerType } as const;

/** RackHD's `{"error":"Not Found"}` (bootstrap.js for a MAC no node has, a library entry no one put). */
export const PlainNotFound = {
  type: "object",
  properties: { error: { const: "Not Found" } },
  required: ["error"],
  additionalProperties: false,
} as const;

/** A route's own 404 text `{"error": text}`, or the stack's `{"message"}` for a name longer than any name. */
const notFoundAs = <Text extends string>(text: Text) =>
  ({
    anyOf: [
      { type: "object", properties: { error: { const: text } }, required: ["error"], additionalProperties: false },
      { type: "object", properties: { message: { type: "string" } }, required: ["message"], additionalProperties: false },
    ],
  }) as const;

/** A library entry's 404: RackHD's `{"error":"Not Found"}`. */
export const LibraryNotFound = notFoundAs("Not Found");

// The file store (RackHD 1.1 §8).

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

/** A page that lives elsewhere (GET /docs): where, as in the Location header. */
export const PageRedirect = {
  type: "object",
  properties: { location: { type: "string" } },
  required: ["location"],
  additionalProperties: false,
} as const;

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

/** 204: no body. */
export const NoContent = {} as const;

/** The microkernel's bootstrap.js, JavaScript for `node`. */
export const MicrokernelScript = { type: "string" } as const;

/** iPXE scripts and install templates (text/plain). */
export const Script = { type: "string" } as const;

/** Every provisioning error: RackHD's `{"message": text}`. */
export const RackhdError = {
  type: "object",
  properties: { message: { type: "string" } },
  required: ["message"],
  additionalProperties: false,
} as const;

// Documentation answers.

/** RackHD's serializable schemas (GET /schemas): JSON Schemas named by `id`. */
export const SerializableSchema = { type: "object", properties: { id: { type: "string" } }, required: ["id"] } as const;
export const SerializableSchemaList = { type: "array", items: SerializableSchema } as const;

/** A schema id path parameter (`Serializables.V1.Node`). */
export const SchemaIdParams = {
  type: "object",
  properties: { version: { enum: ["1.1", "current", "common"] }, id: { type: "string", minLength: 1, maxLength: 255 } },
  required: ["version", "id"],
} as const;

// The documentation answers, shared by both services.
export { ConsoleAsset, ConsoleAssetParams, ConsoleNotFound, Html, OpenApiDocument, Query, ViewerScript } from "./common";
export * from "./relays";
