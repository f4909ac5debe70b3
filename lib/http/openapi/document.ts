import { touchesData } from "../../dataAccess";
import * as provisioningSchemas from "../provisioning/schemas";
import { accessOf } from "../routes/access";
import { type Endpoint, reachedByBrowsers, refusesFormBody, type SchemaName } from "../routes/endpoint";
import * as taskSchemas from "../tasks/schemas";

/**
 * The OpenAPI 3.1 document of each service, built from the route registry and the schemas, so it
 * cannot drift from the code. `npm run generate` writes it (lib/http/openapi/*.generated.json);
 * the services serve it, the docs pages render it, and the tests check every answer against it.
 */
export type ServiceName = "tasks" | "provisioning";

interface ServiceInfo {
  title: string;
  description: string;
  /** The registry paths' prefix, which the document's server URLs replace. */
  prefix: string;
  servers: string[];
  schemas: Record<string, unknown>;
  error: SchemaName;
}

export const SERVICES: Record<ServiceName, ServiceInfo> = {
  tasks: {
    title: "Task list service",
    description:
      "The to-do API of Miguel Grinberg's Flask REST tutorial. Under TASKS_PUBLIC_FORM=list (the default) the list answer carries `uri` in place of `id`; under `all` every answer does; under `off` none does. TASKS_AUTH puts Basic auth on the list (`list`) or on every route (`all`).",
    prefix: "/todo/api/v1.0",
    servers: ["/todo/api/v1.0"],
    schemas: taskSchemas,
    error: "TaskError",
  },
  provisioning: {
    title: "Node provisioning service (RackHD API 1.1)",
    description:
      "RackHD 1.1 on AWS Lambda: nodes, OBM settings, graphs and workflows (northbound, behind Basic auth when PROVISIONING_AUTH=on), and the PXE/iPXE boot flow (southbound, never behind auth). The same routes answer under /api/1.1, /api/current and /api/common.",
    prefix: "/api/{version}",
    servers: ["/api/1.1", "/api/current", "/api/common"],
    schemas: provisioningSchemas,
    error: "RackhdError",
  },
};

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  204: "No content",
  400: "Bad request: the contract's reason in the error body",
  401: "Missing or wrong credentials (AUTH_FAILURE_STATUS=401)",
  403: "Missing or wrong credentials (AUTH_FAILURE_STATUS=403), a role that does not allow this (docs/team.md), or a change from another origin's page (docs/security.md)",
  404: "Not found",
  409: "Conflict",
  413: "The body is larger than BODY_LIMIT_BYTES, or the record would be larger than a stored record may be",
  422: "The Idempotency-Key was used before with another request body",
  429: "Too many failed sign-ins for this user name or from this address: try again after Retry-After seconds",
  500: "Internal error (a bad setting or a bug; the body says nothing of the cause)",
  503: "The data store is throttled or unreachable (STORE=dynamodb): try again after Retry-After seconds",
  507: "The memory store is full (MEMORY_STORE_CAPACITY, MEMORY_STORE_MAX_BYTES)",
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Answers that are not JSON, by schema name (the route's entry says which it answers). */
export const CONTENT_TYPES: Record<string, string> = {
  Script: "text/plain",
  Html: "text/html",
  ViewerScript: "text/javascript",
  MicrokernelScript: "application/javascript",
  FileBytes: "application/octet-stream",
  FileUuid: "text/plain",
  InstallLogText: "text/plain",
};

/** An operation's tag: its path's first segment; the documents and docs pages are "documentation". */
const tagOf = (path: string): string => {
  const first = path.split("/")[1];
  return ["openapi.json", "docs", "schemas"].includes(first) ? "documentation" : first;
};

const TAG_TEXT: Record<string, string> = {
  documentation: "This document, the docs page that renders it, and RackHD's serializable schemas",
  tasks: "The task list",
  nodes: "Discovered and created nodes, their OBM settings and their workflows",
  obms: "The OBM services known",
  workflows: "The graph library and running workflows",
  profiles: "iPXE scripts for booting machines",
  templates: "Install scripts (kickstart, preseed, …) for booting machines",
  notification: "Booting machines saying their install is done",
  files: "A file store: bytes by name, each file with a uuid (S3 beside DynamoDB; presigned URLs for large files)",
  sites: "This service's own, not RackHD's: sites, the credentials of their relays, and the relays' jobs",
  relay: "This service's own, not RackHD's: what a site's relay calls to take its jobs and report them",
  subnets:
    "This service's own, not RackHD's: sites' subnets, their boot ranges, static pools and reserved addresses, and the addresses given from them",
  hooks:
    "RackHD 2.0's web hooks (also under /api/2.0): every event POSTed to each hook that wants it, signed per Standard Webhooks, retried for a day",
};

/** The schemas the document's operations name (path parameters are inlined, so theirs are not). */
function componentSchemas(service: ServiceInfo, paths: Record<string, unknown>): Record<string, unknown> {
  const named = new Set([...JSON.stringify(paths).matchAll(/#\/components\/schemas\/(\w+)/g)].map((match) => match[1]));
  return Object.fromEntries([...named].sort().map((name) => [name, service.schemas[name]]));
}

function responseObject(status: number, name: string | undefined, paged = false) {
  const description = STATUS_TEXT[status] ?? `HTTP ${status}`;
  if (name === undefined || name === "NoContent") return { description };
  const headers =
    status === 401 || status === 403
      ? { "WWW-Authenticate": { description: 'Basic realm="<AUTH_REALM>"', schema: { type: "string" } } }
      : status === 503 || status === 429
        ? { "Retry-After": { description: "Seconds to wait before trying again", schema: { type: "integer" } } }
        : status === 200 && paged
          ? { Link: { description: 'The next page, when there is one: <…?limit=N&next=…>; rel="next"', schema: { type: "string" } } }
          : undefined;
  const type = CONTENT_TYPES[name] ?? "application/json";
  return { description, ...(headers && { headers }), content: { [type]: { schema: ref(name) } } };
}

/** Every status the code can give for an entry, with its schema: the declared ones and those of the shared stack. */
function responses(service: ServiceInfo, entry: Endpoint): Record<string, unknown> {
  const statuses = new Map<number, string>(Object.entries(entry.responses).map(([status, name]) => [Number(status), name]));
  // A name no schemas.ts exports would be written as a dangling reference (issue 51): stop, by name.
  for (const name of statuses.values()) {
    if (name !== "NoContent" && !Object.hasOwn(service.schemas, name)) {
      throw new Error(
        `Registry entry ${entry.function} answers schema ${name}, which no schemas.ts of the ${service.title} exports: export it beside the entry (its resource's schemas.ts) or fix the entry's responses`,
      );
    }
  }
  const add = (status: number) => statuses.has(status) || statuses.set(status, service.error);
  if (entry.request.params) add(404);
  if (entry.request.query || entry.request.body || refusesFormBody(entry)) add(400);
  add(413); // the body limit holds on every route, a GET's body included
  if (entry.auth !== "none") {
    add(401);
    add(403);
  }
  // A change from another origin's page.
  if (reachedByBrowsers(entry) && entry.method !== "GET") add(403);
  // Basic credentials: failed sign-ins are limited (lib/auth/attemptLimiter.ts).
  if (entry.auth === "northbound" || entry.auth === "tasks" || entry.auth === "tasksList") add(429);
  if (entry.method !== "GET") add(507);
  // The store is throttled, unreachable or slow; or the user list in SSM cannot be read (AUTH_USERS_PARAMETER).
  if (touchesData(accessOf(entry)) || entry.auth !== "none") add(503);
  if (entry.idempotent) {
    add(409); // the same Idempotency-Key still in progress
    add(422);
  }
  add(500);
  return Object.fromEntries(
    [...statuses].sort(([a], [b]) => a - b).map(([status, name]) => [String(status), responseObject(status, name, entry.paged)]),
  );
}

function parameters(service: ServiceInfo, entry: Endpoint): unknown[] {
  const out: unknown[] = [];
  const params = entry.request.params;
  if (params) {
    const schema = service.schemas[params.schemaName] as { properties?: Record<string, unknown> };
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (name !== "version") out.push({ name, in: "path", required: true, schema: property });
    }
  }
  if (entry.paged) {
    out.push(
      {
        name: "limit",
        in: "query",
        description: 'Answer in pages of this many items; the Link header (rel="next") names the next page.',
        schema: { type: "integer", minimum: 1, maximum: 1000 },
      },
      {
        name: "next",
        in: "query",
        description: "The next page's token, from the Link header.",
        schema: { type: "string", maxLength: 1024 },
      },
      {
        name: "$top",
        in: "query",
        description: "RackHD 2.0's page size (as limit).",
        schema: { type: "integer", minimum: 1, maximum: 1000 },
      },
      { name: "$skip", in: "query", description: "RackHD 2.0's offset.", schema: { type: "integer", minimum: 0 } },
    );
  }
  if (entry.idempotent) {
    out.push({
      name: "Idempotency-Key",
      in: "header",
      description:
        "Makes a retry safe: the same key with the same body answers the first answer again (with `Idempotent-Replayed: true`) and changes nothing; with another body, 422; while the first is still being carried out, 409 with Retry-After. Keys are kept 24 hours, per method, path and credentials.",
      schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
    });
  }
  if (entry.request.query) {
    out.push({
      name: "query",
      in: "query",
      description: "Query parameters, each with one or more values (repeat a key, or separate values with commas where the route says so).",
      style: "form",
      explode: true,
      schema: { type: "object", additionalProperties: { type: "string", maxLength: 1024 } },
    });
  }
  return out;
}

function operation(service: ServiceInfo, entry: Endpoint): Record<string, unknown> {
  const body = entry.request.body;
  return {
    operationId: entry.function,
    summary: entry.summary,
    tags: [tagOf(entry.path.slice(service.prefix.length))],
    ...(entry.auth === "none"
      ? { security: [] }
      : entry.auth === "relay"
        ? { security: [{ relayToken: [] }], description: "A site relay's credential: `Authorization: Bearer <token>`." }
        : entry.auth === "boot"
          ? {
              security: [{}, { relayToken: [] }],
              description: "A booting machine's route: open, or with BOOT_VIA_RELAY=on only through a site's relay.",
            }
          : {
              security: [{}, ...OPERATOR_SCHEMES.map((scheme) => ({ [scheme]: [] }))],
              description: `Credentials when ${AUTH_SETTING[entry.auth]}: a Basic user, an API token, RackHD's /login token, or the identity provider's token (docs/team.md).`,
            }),
    parameters: parameters(service, entry),
    ...(body && {
      requestBody: {
        required: !entry.request.bodyOptional,
        content: { "application/json": { schema: ref(body.schemaName) } },
      },
    }),
    responses: responses(service, entry),
  };
}

/**
 * Every way an operator's request is let in (lib/http/middleware/basicAuth.ts): a Basic user, an
 * API token or a console session (`Bearer rhdt_…`), RackHD's /login token as its clients send it
 * (`Authorization: JWT <token>`, or `?auth_token=`). The identity provider's JWTs (`openIdConnect`)
 * are added where the document is served, when OIDC_ISSUER names a provider (./served.ts).
 */
export const OPERATOR_SCHEMES = ["basicAuth", "apiToken", "rackhdJwt", "rackhdQueryToken"] as const;

const SECURITY_SCHEMES: Record<(typeof OPERATOR_SCHEMES)[number], Record<string, string>> = {
  basicAuth: { type: "http", scheme: "basic" },
  apiToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "rhdt_<id>_<secret>",
    description: "An API token (POST /tokens, or RackHD's POST /login's): `Authorization: Bearer <token>`",
  },
  rackhdJwt: {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description: "RackHD's /login token as RackHD's clients send it: `Authorization: JWT <token>`",
  },
  rackhdQueryToken: { type: "apiKey", in: "query", name: "auth_token", description: "RackHD's /login token in the query" },
};

const AUTH_SETTING: Record<Exclude<Endpoint["auth"], "none" | "relay" | "boot">, string> = {
  tasksList: "TASKS_AUTH is list or all",
  tasks: "TASKS_AUTH is all",
  northbound: "PROVISIONING_AUTH is on",
};

/**
 * The versions a route answers under when they are not the service's (RackHD 2.0's hooks also
 * answer under /api/2.0): the path's own `servers`. Undefined for the service's usual ones.
 */
function versionsOf(service: ServiceInfo, entry: Endpoint): string[] | undefined {
  const params = entry.request.params;
  const version = params && (service.schemas[params.schemaName] as { properties?: { version?: { enum?: string[] } } }).properties?.version;
  const versions = version?.enum;
  if (!versions || versions.every((name) => service.servers.includes(`/api/${name}`))) return undefined;
  return versions;
}

/** The OpenAPI 3.1 document of a service, from these registry entries. */
export function openApiDocument(name: ServiceName, routes: readonly Endpoint[]): Record<string, unknown> {
  const service = SERVICES[name];
  const paths: Record<string, Record<string, unknown>> = {};
  const greedy: Record<string, string> = {};
  for (const entry of routes.filter((route) => route.service === name)) {
    // A greedy parameter (`{path+}`, API Gateway's) is one parameter to OpenAPI: its value may hold
    // `/`, which the document says in `x-greedy-paths` (the registry's template, as API Gateway routes it).
    const route = entry.path.slice(service.prefix.length);
    const path = route.replace(/\{(\w+)\+\}/g, "{$1}");
    if (path !== route) greedy[path] = route;
    paths[path] ??= {};
    paths[path][entry.method.toLowerCase()] = operation(service, entry);
    const versions = versionsOf(service, entry);
    if (versions) paths[path].servers = versions.map((version) => ({ url: `/api/${version}` }));
  }
  return {
    openapi: "3.1.0",
    info: { title: service.title, version: "1.0.0", description: service.description, license: { name: "MIT", identifier: "MIT" } },
    servers: service.servers.map((url) => ({ url })),
    tags: [
      ...new Set(
        Object.values(paths).flatMap((operations) =>
          Object.entries(operations).flatMap(([key, op]) => (key === "servers" ? [] : (op as { tags: string[] }).tags)),
        ),
      ),
    ].map((tag) => ({ name: tag, description: TAG_TEXT[tag] ?? tag })),
    paths,
    ...(Object.keys(greedy).length > 0 && { "x-greedy-paths": greedy }),
    components: {
      securitySchemes: {
        ...SECURITY_SCHEMES,
        ...(name === "provisioning" && { relayToken: { type: "http", scheme: "bearer", description: "A site relay's credential" } }),
      },
      schemas: componentSchemas(service, paths),
    },
  };
}
