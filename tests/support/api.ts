import { join } from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import { handler as fallback } from "../../handlers/http/fallback";
import { ROUTES } from "../../lib/http/routes";
import type { Endpoint } from "../../lib/http/routes/endpoint";
import * as provisioningSchemas from "../../lib/http/schemas/provisioning";
import * as taskSchemas from "../../lib/http/schemas/tasks";
import { resetProcessSingleton } from "../../lib/store/processSingleton";
import type { Answer } from "./apiGatewayEvent";
import { makeRouter, type RouteBinding } from "./router";

const ROOT = join(__dirname, "../..");

const SCHEMAS = { ...taskSchemas, ...provisioningSchemas };
const ajv = new Ajv({ strict: false, allowUnionTypes: true });
const compiled = new Map<object, ValidateFunction>();
const validator = (schema: object): ValidateFunction => {
  const known = compiled.get(schema);
  if (known) return known;
  const validate = ajv.compile(schema);
  compiled.set(schema, validate);
  return validate;
};

/**
 * Every answer a routed handler gives must fit the schema its registry entry declares for that
 * status; an error status it does not declare must still be the service's error body. So the
 * documented responses cannot drift from what the handlers answer.
 */
function answerChecker(route: Endpoint): (answer: Answer) => void {
  return (answer) => {
    const declared = (route.responses as Record<number, string>)[answer.status];
    const name = declared ?? (answer.status >= 400 ? (route.service === "tasks" ? "TaskError" : "RackhdError") : undefined);
    const schema = name && (SCHEMAS as unknown as Record<string, object>)[name];
    if (!schema) throw new Error(`${route.function} answered ${answer.status}, which its registry entry does not declare`);
    const validate = validator(schema);
    const body = answer.status === 204 ? {} : answer.body;
    if (!validate(body)) {
      throw new Error(
        `${route.function} answered ${answer.status} off its schema: ${ajv.errorsText(validate.errors)}\n${answer.raw.slice(0, 500)}`,
      );
    }
  };
}

/** Every endpoint of the route registry, bound to the handler its entry names (as serverless.yml is). */
const bindings = (): RouteBinding[] =>
  ROUTES.map((route) => ({
    method: route.method,
    path: route.path,
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    handler: require(join(ROOT, route.handler)).handler,
    checkAnswer: answerChecker(route),
  }));

/** The whole API (both services) behind an API Gateway-like router. */
export const api = makeRouter(bindings(), fallback);

/** A fresh container: empty stores (demo nodes come back on first use when DEMO_NODES=on). */
export function freshContainer(): void {
  resetProcessSingleton("taskStore.memory");
  resetProcessSingleton("provisioningStores.memory");
}
