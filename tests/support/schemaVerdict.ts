import { ValidationError } from "../../lib/errors";
import { type CompiledSchema, check } from "../../lib/http/validation";

/** "ok" when the value fits the schema, else the contract's text of the ValidationError it gets. */
export function verdict(schema: CompiledSchema<unknown>, value: unknown): string {
  try {
    check(schema, value);
    return "ok";
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.message;
  }
}
