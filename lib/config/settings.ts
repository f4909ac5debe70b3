import { DEFAULT_AUDIT_RETENTION_DAYS } from "../audit/auditTrail";
import { type ConsoleSignIn, type OidcSettings, readConsoleSignIn, readOidcSettings } from "../auth/oidc";
import { defaultGrants, type Grant, parseRoles, type RoleMap } from "../auth/roles";
import { parseUsers, type UserTable } from "../auth/users";
import { ConfigError } from "../errors";
import { LOG_LEVELS, type LogLevel } from "../logger";
import { DEFAULT_RETRY_SECONDS } from "../provisioning/hooks/retrySchedule";

export type PublicForm = "off" | "list" | "all";
export type TasksAuth = "off" | "list" | "all";

/** Every setting of the product, parsed and validated. See the README's settings table. */
export interface Settings {
  tasksPublicForm: PublicForm;
  tasksAuth: TasksAuth;
  provisioningAuth: boolean;
  authFailureStatus: 401 | 403;
  authRealm: string;
  authUsers: UserTable;
  /** AUTH_ROLES: the grants of users and identity providers' groups (issue 55, docs/team.md). */
  authRoles: RoleMap;
  /** AUTH_DEFAULT_ROLE: what a user AUTH_ROLES does not name holds (admin on every site unless said). */
  authDefaultGrants: Grant[];
  /** AUDIT_RETENTION_DAYS: how long the audit trail keeps a record (DynamoDB's TTL). */
  auditRetentionDays: number;
  /** An SSM Parameter Store parameter (SecureString) holding AUTH_USERS, read at run time instead. */
  authUsersParameter: string | undefined;
  /** OIDC_*: sign-in with an OpenID Connect provider's tokens (issue 55, docs/team.md); undefined = none. */
  oidc: OidcSettings | undefined;
  /** OIDC_CONSOLE_*: the console's sign-in with that provider (its client id, scopes); undefined = the console asks for Basic credentials only. */
  consoleSignIn: ConsoleSignIn | undefined;
  /** Absolute base URL (no trailing slash) for task `uri`s; undefined = from the request. */
  publicBaseUrl: string | undefined;
  /** What `{{api.server}}` renders to; undefined = from the request. */
  apiServer: string | undefined;
  /** What `{{file.server}}` renders to (the microkernel's files); undefined = as `{{api.server}}`. */
  fileServer: string | undefined;
  /** The graph a machine PXE-booting with unknown MACs runs; undefined (off) = it is only recorded. */
  discoveryGraph: string | undefined;
  corsOrigins: "*" | readonly string[];
  bodyLimitBytes: number;
  store: "memory" | "dynamodb";
  /** Table of the DynamoDB store. */
  dynamodbTable: string;
  /** Endpoint of a local DynamoDB engine; undefined = the AWS service of the region. */
  dynamodbEndpoint: string | undefined;
  /** The S3 bucket of the file store (`STORE=dynamodb`); the deployment declares it. */
  filesBucket: string;
  /** Endpoint of a local S3-compatible server; undefined = the AWS service of the region. */
  s3Endpoint: string | undefined;
  demoNodes: boolean;
  /**
   * Boot requests (kickstart, completion, notification) must name their node and carry its active
   * workflow's token; off = RackHD's way (a request may name no node: its source address does).
   */
  bootTokens: boolean;
  /** UEFI_LOADER: the network loader a UEFI machine gets when its node names none and it has not reported Secure Boot on. */
  uefiLoader: "ipxe" | "grub";
  /** RELEASE_ERASE: how a release erases a node's disks when it does not say (docs/lifecycle.md). */
  releaseErase: "quick" | "full";
  /** BOOT_VIA_RELAY=on: the boot routes answer only requests a site's relay forwards (with its credential). */
  bootViaRelay: boolean;
  /** How long a relay holds a job it took before another relay may take it (RELAY_LEASE_SECONDS). */
  relayLeaseMs: number;
  /**
   * RELAY_PUSH_URL: the WebSocket API relays connect to (ws:// or wss://, its stage in the path),
   * told to each relay in its lease answers; making a job then pushes to the site's connected
   * relays through the same API's `@connections` (issue 56). Unset: no push, relays poll.
   */
  relayPushUrl: string | undefined;
  memoryStoreCapacity: number;
  memoryStoreMaxBytes: number;
  logRequests: boolean;
  /** The least severe log line written (lib/logger.ts reads LOG_LEVEL itself: a logger never fails). */
  logLevel: LogLevel;
  /** Whether each invocation writes its metrics line (CloudWatch embedded metric format, lib/metrics.ts). */
  metrics: boolean;
  /** The function's time-out (serverless.yml provider.timeout): store calls end well inside it. */
  functionTimeoutSeconds: number;
  /** The key every hook's signing secret derives from (HOOK_SIGNING_KEY); undefined = hooks cannot be made. */
  hookSigningKey: string | undefined;
  /** The waits, in seconds, before each retry of a failed delivery (HOOK_RETRY_SECONDS). */
  hookRetrySeconds: readonly number[];
  /** Where hooks may post (issue 35 §7): private addresses (HOOK_PRIVATE_TARGETS) and plain http (HOOK_HTTP). */
  hookTargets: { privateTargets: boolean; http: boolean };
}

type Env = Record<string, string | undefined>;

/** The variables read, in the order of the README table. */
export const SETTING_NAMES = [
  "TASKS_PUBLIC_FORM",
  "TASKS_AUTH",
  "PROVISIONING_AUTH",
  "AUTH_FAILURE_STATUS",
  "AUTH_REALM",
  "AUTH_USERS",
  "AUTH_USERS_PARAMETER",
  "AUTH_ROLES",
  "AUTH_DEFAULT_ROLE",
  "AUDIT_RETENTION_DAYS",
  "OIDC_ISSUER",
  "OIDC_AUDIENCE",
  "OIDC_NAME_CLAIM",
  "OIDC_GROUPS_CLAIM",
  "OIDC_DEFAULT_ROLE",
  "OIDC_AUTHORIZER",
  "OIDC_CONSOLE_CLIENT",
  "OIDC_CONSOLE_SCOPE",
  "PUBLIC_BASE_URL",
  "API_SERVER",
  "FILE_SERVER",
  "DISCOVERY_GRAPH",
  "CORS_ORIGINS",
  "BODY_LIMIT_BYTES",
  "STORE",
  "DYNAMODB_TABLE",
  "DYNAMODB_ENDPOINT",
  "FILES_BUCKET",
  "S3_ENDPOINT",
  "DEMO_NODES",
  "BOOT_TOKENS",
  "BOOT_VIA_RELAY",
  "UEFI_LOADER",
  "RELEASE_ERASE",
  "RELAY_LEASE_SECONDS",
  "MEMORY_STORE_CAPACITY",
  "MEMORY_STORE_MAX_BYTES",
  "LOG_REQUESTS",
  "LOG_LEVEL",
  "METRICS",
  "FUNCTION_TIMEOUT_SECONDS",
  "HOOK_SIGNING_KEY",
  "HOOK_RETRY_SECONDS",
  "HOOK_PRIVATE_TARGETS",
  "HOOK_HTTP",
] as const;

const oneOf = <T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T => {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  const value = raw.toLowerCase() as T;
  if (!allowed.includes(value)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(", ")} (got "${raw}")`);
  }
  return value;
};

const positiveInteger = (env: Env, name: string, fallback: number): number => {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new ConfigError(`${name} must be a positive integer (got "${raw}")`);
  }
  return Number(raw);
};

/** An absolute URL of `scheme` (http(s), or ws(s) for a WebSocket API), less a trailing slash; undefined when unset. */
const absoluteUrl = (env: Env, name: string, scheme: "http" | "ws" = "http"): string | undefined => {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute ${scheme}(s) URL (got "${raw}")`);
  }
  if (url.protocol !== `${scheme}:` && url.protocol !== `${scheme}s:`) {
    throw new ConfigError(`${name} must be an absolute ${scheme}(s) URL (got "${raw}")`);
  }
  // Kept as written, less a trailing slash, so a path prefix such as /prod survives.
  return raw.replace(/\/+$/, "");
};

const origins = (env: Env): "*" | string[] => {
  const raw = env.CORS_ORIGINS?.trim();
  if (raw === undefined || raw === "" || raw === "*") return "*";
  // A deployed stage's default: no other origin may call the APIs (the console is same-origin).
  if (raw === "none") return [];
  return raw
    .split(",")
    .map((origin) => origin.trim().replace(/\/+$/, ""))
    .filter((origin) => origin !== "");
};

/** AUTH_USERS_PARAMETER: an SSM parameter name, and only when AUTH_USERS itself is not set. */
function parameterName(env: Env): string | undefined {
  const raw = env.AUTH_USERS_PARAMETER?.trim();
  if (raw === undefined || raw === "") return undefined;
  if (!/^\/[A-Za-z0-9_.\-/]{1,2047}$/.test(raw)) {
    throw new ConfigError(`AUTH_USERS_PARAMETER must be an SSM parameter's full name, starting with / (got "${raw}")`);
  }
  if (env.AUTH_USERS?.trim()) throw new ConfigError("AUTH_USERS and AUTH_USERS_PARAMETER are both set: set one");
  return raw;
}

/** DISCOVERY_GRAPH: a graph name, or `off`; RackHD's Graph.SKU.Discovery when unset. */
function discoveryGraph(env: Env): string | undefined {
  const raw = env.DISCOVERY_GRAPH?.trim();
  if (raw === undefined || raw === "") return "Graph.SKU.Discovery";
  if (raw.toLowerCase() === "off") return undefined;
  if (!/^[\w.-]{1,255}$/.test(raw)) throw new ConfigError(`DISCOVERY_GRAPH must be a graph name or off (got "${raw}")`);
  return raw;
}

/** HOOK_SIGNING_KEY: at least 32 characters (it signs for every hook), or unset. */
function signingKey(env: Env): string | undefined {
  const raw = env.HOOK_SIGNING_KEY?.trim();
  if (raw === undefined || raw === "") return undefined;
  if (raw.length < 32) throw new ConfigError("HOOK_SIGNING_KEY must be at least 32 characters (openssl rand -base64 32 makes one)");
  return raw;
}

/** HOOK_RETRY_SECONDS: 1 to 20 waits in seconds, comma-separated (each at most 12 hours). */
function retrySeconds(env: Env): readonly number[] {
  const raw = env.HOOK_RETRY_SECONDS?.trim();
  if (raw === undefined || raw === "") return DEFAULT_RETRY_SECONDS;
  const parts = raw.split(",").map((part) => part.trim());
  const waits = parts.map(Number);
  if (waits.length > 20 || waits.some((wait) => !Number.isFinite(wait) || wait < 0 || wait > 43_200) || parts.some((part) => part === "")) {
    throw new ConfigError(`HOOK_RETRY_SECONDS must be 1 to 20 waits in seconds, each 0 to 43200, comma-separated (got "${raw}")`);
  }
  return waits;
}

function auditRetention(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return DEFAULT_AUDIT_RETENTION_DAYS;
  const days = Number(raw);
  if (!/^\d{1,4}$/.test(raw.trim()) || days < 1 || days > 3653)
    throw new ConfigError(`AUDIT_RETENTION_DAYS must be a whole number of days from 1 to 3653 (got "${raw}")`);
  return days;
}

/**
 * OIDC_*: with the gateway's JWT authorizer on every protected route, a Basic user's request never
 * reaches a function: a user list beside it would be a door that looks open and is not.
 */
function oidcSettings(env: Env): OidcSettings | undefined {
  const oidc = readOidcSettings(env);
  if (oidc?.authorizer === "gateway" && (env.AUTH_USERS?.trim() || env.AUTH_USERS_PARAMETER?.trim()))
    throw new ConfigError(
      "OIDC_AUTHORIZER=gateway lets only the identity provider's tokens reach the functions: unset AUTH_USERS and AUTH_USERS_PARAMETER, or use OIDC_AUTHORIZER=function",
    );
  return oidc;
}

export function readSettings(env: Env): Settings {
  return {
    tasksPublicForm: oneOf(env, "TASKS_PUBLIC_FORM", ["off", "list", "all"] as const, "list"),
    tasksAuth: oneOf(env, "TASKS_AUTH", ["off", "list", "all"] as const, "off"),
    provisioningAuth: oneOf(env, "PROVISIONING_AUTH", ["off", "on"] as const, "off") === "on",
    authFailureStatus: Number(oneOf(env, "AUTH_FAILURE_STATUS", ["401", "403"] as const, "401")) as 401 | 403,
    authRealm: env.AUTH_REALM?.trim() || "Authentication Required",
    authUsers: parseUsers(env.AUTH_USERS ?? ""),
    authRoles: parseRoles(env.AUTH_ROLES ?? ""),
    authDefaultGrants: defaultGrants(env.AUTH_DEFAULT_ROLE),
    auditRetentionDays: auditRetention(env.AUDIT_RETENTION_DAYS),
    authUsersParameter: parameterName(env),
    oidc: oidcSettings(env),
    consoleSignIn: readConsoleSignIn(env, readOidcSettings(env)),
    publicBaseUrl: absoluteUrl(env, "PUBLIC_BASE_URL"),
    apiServer: absoluteUrl(env, "API_SERVER"),
    fileServer: absoluteUrl(env, "FILE_SERVER"),
    discoveryGraph: discoveryGraph(env),
    corsOrigins: origins(env),
    bodyLimitBytes: positiveInteger(env, "BODY_LIMIT_BYTES", 1024 * 1024),
    store: oneOf(env, "STORE", ["memory", "dynamodb"] as const, "memory"),
    dynamodbTable: env.DYNAMODB_TABLE?.trim() || "lambda-tasks-provisioning",
    dynamodbEndpoint: absoluteUrl(env, "DYNAMODB_ENDPOINT"),
    filesBucket: env.FILES_BUCKET?.trim() || "lambda-tasks-provisioning-files",
    s3Endpoint: absoluteUrl(env, "S3_ENDPOINT"),
    demoNodes: oneOf(env, "DEMO_NODES", ["on", "off"] as const, "off") === "on",
    bootTokens: oneOf(env, "BOOT_TOKENS", ["on", "off"] as const, "on") === "on",
    bootViaRelay: oneOf(env, "BOOT_VIA_RELAY", ["on", "off"] as const, "off") === "on",
    uefiLoader: oneOf(env, "UEFI_LOADER", ["ipxe", "grub"] as const, "ipxe"),
    releaseErase: oneOf(env, "RELEASE_ERASE", ["quick", "full"] as const, "quick"),
    relayLeaseMs: positiveInteger(env, "RELAY_LEASE_SECONDS", 60) * 1000,
    relayPushUrl: absoluteUrl(env, "RELAY_PUSH_URL", "ws"),
    memoryStoreCapacity: positiveInteger(env, "MEMORY_STORE_CAPACITY", 100_000),
    memoryStoreMaxBytes: positiveInteger(env, "MEMORY_STORE_MAX_BYTES", 256 * 1024 * 1024),
    logRequests: oneOf(env, "LOG_REQUESTS", ["on", "off"] as const, "on") === "on",
    logLevel: oneOf(env, "LOG_LEVEL", LOG_LEVELS, "info"),
    metrics: oneOf(env, "METRICS", ["on", "off"] as const, "on") === "on",
    functionTimeoutSeconds: positiveInteger(env, "FUNCTION_TIMEOUT_SECONDS", 10),
    hookSigningKey: signingKey(env),
    hookTargets: {
      privateTargets: oneOf(env, "HOOK_PRIVATE_TARGETS", ["on", "off"] as const, "off") === "on",
      http: oneOf(env, "HOOK_HTTP", ["on", "off"] as const, "off") === "on",
    },
    hookRetrySeconds: retrySeconds(env),
  };
}

let cached: { env: Env; settings: Settings } | undefined;

/**
 * The settings of the process environment, parsed once per container: a Lambda container's
 * environment is fixed when it starts, and reading process.env is a call into C++ each time
 * (once per middleware, that was most of a warm request's cost). Whoever changes process.env
 * afterwards (tests, scripts) calls reloadSettings().
 */
export function settings(env: Env = process.env): Settings {
  if (cached?.env !== env) cached = { env, settings: readSettings(env) };
  return cached.settings;
}

/** Forgets the parsed settings; the next settings() reads the environment again. */
export function reloadSettings(): void {
  cached = undefined;
}
