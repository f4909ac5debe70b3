import type { SiteScope } from "../../auth/authorize";
import type { Settings } from "../../config/settings";
import type { DataAccess } from "../../dataAccess";
import type * as provisioningSchemas from "../provisioning/schemas";
import type * as taskSchemas from "../tasks/schemas";
import type { CompiledSchema } from "../validation";
import type { HandlerFile } from "./handlerFiles.generated";

type Schemas = typeof taskSchemas & typeof provisioningSchemas;
/** The name of a schema lib/http/schemas exports (responses name theirs, so no bundle holds them). */
export type SchemaName = { [K in keyof Schemas]: Schemas[K] extends object ? K : never }[keyof Schemas];

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Which service an endpoint belongs to; it decides the error body (Flask's or RackHD's) and the
 * API document. `console`: pages and files outside both documents (the console, RackHD's /docs and
 * /common), with RackHD's error body.
 */
export type Service = "tasks" | "provisioning" | "console";

/**
 * When an endpoint asks for Basic credentials: `tasksList` under TASKS_AUTH=list|all (the seed
 * protects the list), `tasks` under TASKS_AUTH=all, `northbound` under PROVISIONING_AUTH=on, `relay`
 * always, a site relay's Bearer credential (checked by the handler, which needs the store), `boot`
 * a booting machine's routes: open, or under BOOT_VIA_RELAY=on only through a relay (endpoint()'s
 * boot gate checks it), `none` never (a machine in PXE cannot log in).
 */
export type AuthRule = "tasksList" | "tasks" | "northbound" | "relay" | "boot" | "none";

/**
 * What an endpoint does, as the policy sees it (lib/auth/policy.cedar, issue 55): `view` reads
 * (never a secret), `operate` acts on machines (power, workflows, OBM, the life cycle), `administer`
 * keeps what every machine depends on (sites, relays, hooks, libraries, files, settings).
 */
export type Permission = "view" | "operate" | "administer";

/** Which site the action is on (lib/auth/authorize.ts, where the policy reads it). */
export type { SiteScope } from "../../auth/authorize";

/** One endpoint: everything about it is written here and derived everywhere else. */
export interface Endpoint {
  /** The Lambda function's name in serverless.yml. */
  function: string;
  method: HttpMethod;
  /** API Gateway route path, with `{name}` parameters. */
  path: string;
  /**
   * A GET that answers HEAD too (its own route: API Gateway sends HEAD only where a route names it;
   * serverless offline's server answers HEAD from the GET route itself). The answer has no body.
   */
  head?: true;
  /** The module exporting `handler`, from the repository root, without extension (a file that is not there fails the type check). */
  handler: HandlerFile;
  service: Service;
  auth: AuthRule;
  /** The action's permission (the action is the entry's `function`): the policy decides who holds it. */
  permission: Permission;
  /** Which site the action is on, for grants held on named sites. */
  scope: SiteScope;
  /**
   * What its function may do with the data (lib/dataAccess.ts): its IAM policy when deployed, and
   * checked on every store call locally. What `idempotent` and `auth` imply is added (./access.ts).
   */
  data: DataAccess;
  /** What the endpoint does, in one line. */
  summary: string;
  request: {
    /** Path parameters; a value that does not fit names nothing (404). */
    params?: CompiledSchema<unknown>;
    /** Query parameters, each with all its values. */
    query?: CompiledSchema<unknown>;
    /** The JSON body, read when the handler asks for it (after its 404 checks). */
    body?: CompiledSchema<unknown>;
    /** The body may be absent (RackHD's POST /workflows?name=…). */
    bodyOptional?: true;
  };
  /**
   * Takes an `Idempotency-Key` header: a retry with the same key and body gets the first answer
   * and changes nothing (lib/http/idempotentRequest.ts). Creates and updates.
   */
  idempotent?: true;
  /**
   * The body is a file's bytes, as large as the file store takes inline: BODY_LIMIT_BYTES does not
   * apply, and the handler checks the size against the store's (RackHD's PUT /files/{name}).
   */
  fileBody?: true;
  /** The body is raw text in any content type (RackHD's library PUTs): a form's types are taken, as RackHD's clients send them. */
  rawBody?: true;
  /** A list answered in pages (`?limit=`, `next`, RackHD's `$top`/`$skip`; lib/http/paging.ts). */
  paged?: true;
  /** Where a sign-in ends (the console's callback): each of its answers, success or not, goes to the audit trail. */
  signIn?: true;
  /** The answer's schema per status, by name (lib/http/schemas). */
  responses: Readonly<Record<number, SchemaName>>;
}

/** The catch-all `$default` function: preflight, 405 with Allow, JSON 404, HEAD of templates. */
export interface CatchAll {
  function: string;
  handler: HandlerFile;
  data: DataAccess;
  summary: string;
}

/** Whether the rule asks for credentials under these settings. */
export function requiresAuth(rule: AuthRule, config: Pick<Settings, "tasksAuth" | "provisioningAuth">): boolean {
  switch (rule) {
    case "tasksList":
      return config.tasksAuth !== "off";
    case "tasks":
      return config.tasksAuth === "all";
    case "northbound":
      return config.provisioningAuth;
    // A relay presents its own credential (Bearer), which its handler checks against the store.
    case "relay":
    case "boot":
    case "none":
      return false;
  }
}

/** An operator's route (no machine's, no relay's): its changes are refused from another origin's page (lib/http/middleware/browserGuard.ts). */
export const reachedByBrowsers = (entry: Pick<Endpoint, "auth">): boolean => entry.auth !== "boot" && entry.auth !== "relay";

/**
 * An operator's change whose body may be absent (or is none) and is not raw: it refuses a form's
 * content type itself (a route whose body is required refuses it as it reads the body).
 */
export const refusesFormBody = (entry: Pick<Endpoint, "auth" | "method" | "request" | "fileBody" | "rawBody">): boolean =>
  reachedByBrowsers(entry) &&
  entry.method !== "GET" &&
  (entry.request.bodyOptional === true || !entry.request.body) &&
  !entry.fileBody &&
  !entry.rawBody;

/** The methods an entry's function is routed: its method, and HEAD for a GET that says `head`. */
export const methodsOf = (entry: Pick<Endpoint, "method" | "head">): string[] => (entry.head ? [entry.method, "HEAD"] : [entry.method]);
