import { ValidationError } from "../errors";

/** What an ahead-of-time compiled (ajv standalone) validator reports for the first failure. */
export interface SchemaIssue {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** The contract's texts of a schema by JSON pointer: `""` is the node's x-error, other keys its x-errors. */
export type SchemaMessages = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** A compiled check of one schema (named as lib/http/schemas exports it), with the contract's texts. */
export interface CompiledSchema<T> {
  (data: unknown): boolean;
  errors?: SchemaIssue[] | null;
  readonly schemaName: string;
  readonly messages: SchemaMessages;
  /** Phantom: the type the schema describes (json-schema-to-ts). */
  readonly __type?: T;
}

export type SchemaType<C> = C extends CompiledSchema<infer T> ? T : never;

/** Joins a generated validator with its name and texts; pure, so bundles drop the ones they never use. */
export function compiledSchema<T>(validate: (data: unknown) => boolean, schemaName: string, messages: SchemaMessages): CompiledSchema<T> {
  return Object.assign(validate, { schemaName, messages }) as CompiledSchema<T>;
}

/**
 * The contract's text for a failure: from the failing node up to the root, the first text for
 * the failing keyword, or the node's x-error. A missing required property fails at the
 * property's node, so `{"description": "x"}` reads "title is required and must be a string".
 */
export function issueMessage(messages: SchemaMessages, issue: SchemaIssue): string {
  const segments = issue.schemaPath.split("/");
  const keyword = segments.pop() ?? issue.keyword;
  if (keyword === "required") segments.push("properties", String(issue.params.missingProperty).replace(/~/g, "~0").replace(/\//g, "~1"));
  for (let depth = segments.length; depth > 0; depth -= 1) {
    const texts = messages[segments.slice(0, depth).join("/")];
    const text = texts?.[keyword] ?? texts?.[""];
    if (text) return text;
  }
  return `${issue.instancePath || "body"} is not valid (${keyword})`;
}

/** The value, typed by its schema, or a ValidationError with the contract's text. */
export function check<T>(compiled: CompiledSchema<T>, value: unknown): T {
  if (compiled(value)) return value as T;
  const issue = compiled.errors?.[0];
  throw new ValidationError(issue ? issueMessage(compiled.messages, issue) : "Request is not valid");
}

/** Whether the value fits the schema, without saying why (path parameters: a miss is a 404). */
export const fits = <T>(compiled: CompiledSchema<T>, value: unknown): value is T => compiled(value);
