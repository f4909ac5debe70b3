import Ajv, { type ValidateFunction } from "ajv";
import provisioningDocument from "../../lib/http/openapi/provisioning.generated.json";
import tasksDocument from "../../lib/http/openapi/tasks.generated.json";
import { ROUTES } from "../../lib/http/routes";
import { pathPattern } from "../../lib/http/routeTable";
import { specificity } from "./router";

/**
 * The one check every handler and end-to-end test runs on every answer: the answer is what the
 * service's OpenAPI document declares (the status, its content type, and a body that fits its
 * schema). Answers of the catch-all (unknown paths, 405, preflight) must be the service's error
 * body. So a presenter that drops a field, or a status nobody declared, fails the suite.
 */
type Document = typeof tasksDocument | typeof provisioningDocument;
interface Operation {
  responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }>;
}

const SERVICES: { prefix: RegExp; document: Document; error: string }[] = [
  { prefix: /^\/todo\/api\/v1\.0(?=\/|$)/, document: tasksDocument, error: "TaskError" },
  // RackHD 2.0's hooks answer under /api/2.0 too (their paths' own servers).
  { prefix: /^\/api\/(1\.1|current|common|2\.0)(?=\/|$)/, document: provisioningDocument, error: "RackhdError" },
];

export interface ObservedAnswer {
  method: string;
  /** The request's path, without its query. */
  path: string;
  status: number;
  contentType: string;
  body: unknown;
}

const ajv = new Ajv({ strict: false, allowUnionTypes: true });
const compiled = new Map<object, ValidateFunction>();
function validator(schema: object): ValidateFunction {
  const known = compiled.get(schema);
  if (known) return known;
  const validate = ajv.compile(schema);
  compiled.set(schema, validate);
  return validate;
}

/** The document's path template for this path: literal segments beat parameters, as API Gateway routes. */
function matchPath(document: Document, path: string): string | undefined {
  // A path with a greedy parameter has its route template in the document's `x-greedy-paths` (document.ts).
  const greedy = ((document as Record<string, unknown>)["x-greedy-paths"] ?? {}) as Record<string, string>;
  const routeOf = (template: string) => greedy[template] ?? template;
  const candidates = Object.keys(document.paths).filter((template) => pathPattern(routeOf(template)).test(path));
  return candidates.sort((a, b) => specificity(a).localeCompare(specificity(b)))[0];
}

function fail(answer: ObservedAnswer, why: string): never {
  throw new Error(
    `${answer.method} ${answer.path} answered ${answer.status} off the OpenAPI document: ${why}\n${JSON.stringify(answer.body).slice(0, 500)}`,
  );
}

function checkBody(answer: ObservedAnswer, document: Document, schemaName: string): void {
  const schema = (document.components.schemas as Record<string, object>)[schemaName];
  if (!schema) fail(answer, `the document has no schema ${schemaName}`);
  const validate = validator(schema);
  if (!validate(answer.body)) fail(answer, `${schemaName}: ${ajv.errorsText(validate.errors)}`);
}

/** The console's answers: in no API document, so their registry entry says which statuses they give. */
function checkConsole(answer: ObservedAnswer): boolean {
  const entry = ROUTES.find(
    (route) => route.service === "console" && route.method === answer.method && pathPattern(route.path).test(answer.path),
  );
  if (!entry) return false;
  if (!(answer.status in entry.responses))
    fail(answer, `the console's ${entry.function} declares ${Object.keys(entry.responses).join(", ")}`);
  const schema = entry.responses[answer.status];
  // A page is HTML, an asset its script or stylesheet, a 204 nothing, anything else JSON.
  const expected =
    schema === "Html"
      ? "text/html"
      : schema === "ConsoleAsset"
        ? answer.path.endsWith(".css")
          ? "text/css"
          : "text/javascript"
        : answer.status === 204
          ? ""
          : "application/json";
  if (!answer.contentType.startsWith(expected)) fail(answer, `content type ${answer.contentType}, not ${expected}`);
  return true;
}

export function checkAgainstContract(answer: ObservedAnswer): void {
  if (checkConsole(answer)) return;
  // The catch-all picks the error style as the fallback handler does: /todo/ in any case is the task service.
  const service = /\/todo\//i.test(answer.path) ? SERVICES[0] : SERVICES[1];
  const { document } = service;
  const rest = answer.path.replace(service.prefix, "");
  const template = service.prefix.test(answer.path) ? matchPath(document, rest) : undefined;
  const operations = template ? (document.paths as Record<string, Record<string, Operation>>)[template] : undefined;
  // API Gateway sends HEAD to the catch-all, which answers it as the GET for templates (a node's `wget --spider`).
  const operation = answer.method === "HEAD" && answer.status !== 405 ? operations?.get : operations?.[answer.method.toLowerCase()];
  if (!operation) {
    // The catch-all: a preflight, or a JSON error (404, or 405 for a known path).
    if (answer.method === "OPTIONS" && (answer.status === 204 || answer.status === 200)) return; // serverless offline answers preflight 200
    if (![404, 405].includes(answer.status) && !(answer.status === 401 || answer.status === 403))
      fail(answer, "no operation, and not a catch-all answer");
    if (answer.method !== "HEAD") checkBody(answer, document, service.error); // a HEAD answer has no body

    return;
  }
  const response = operation.responses[String(answer.status)];
  if (!response) fail(answer, `status ${answer.status} is not declared (declared: ${Object.keys(operation.responses).join(", ")})`);
  if (!response.content) {
    if (answer.body !== "" && answer.body !== undefined) fail(answer, "a body where the document declares none");
    return;
  }
  if (answer.method === "HEAD") return;
  const type = Object.keys(response.content).find((declared) => answer.contentType.startsWith(declared));
  if (!type) fail(answer, `content type ${answer.contentType} is not declared (${Object.keys(response.content).join(", ")})`);
  checkBody(answer, document, response.content[type].schema.$ref.split("/").pop()!);
}

/** A path item's operations, by method: its other keys (a path's own `servers`) are none. */
export const operationsOf = <T>(pathItem: Record<string, T>): [string, T][] =>
  Object.entries(pathItem).filter(([key]) => ["get", "put", "post", "patch", "delete", "head", "options"].includes(key));
