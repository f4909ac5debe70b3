import { ValidationError } from "../errors";

/** A JSON Schema node as written in lib/http/schemas, with the contract's error texts. */
export interface SchemaNode {
  readonly $id?: string;
  readonly "x-error"?: string;
  readonly "x-errors"?: Readonly<Record<string, string>>;
  readonly [keyword: string]: unknown;
}

/** What an ahead-of-time compiled (ajv standalone) validator reports for the first failure. */
export interface SchemaIssue {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A compiled check of one schema, carrying the schema it was compiled from. */
export interface CompiledSchema<T> {
  (data: unknown): boolean;
  errors?: SchemaIssue[] | null;
  readonly schema: SchemaNode;
  /** Phantom: the type the schema describes (json-schema-to-ts). */
  readonly __type?: T;
}

export type SchemaType<C> = C extends CompiledSchema<infer T> ? T : never;

/** Joins a generated validator with its schema; pure, so bundles drop the ones they never use. */
export function compiledSchema<T>(validate: (data: unknown) => boolean, schema: object): CompiledSchema<T> {
  return Object.assign(validate, { schema: schema as SchemaNode }) as CompiledSchema<T>;
}

const isNode = (value: unknown): value is SchemaNode => typeof value === "object" && value !== null;

/**
 * The contract's text for a failure: the failing node's `x-errors[keyword]`, else the nearest
 * `x-error` on the way from it back to the root. A missing required property is the property's
 * failure, so `{"description": "x"}` reads "title is required and must be a string".
 */
export function issueMessage(root: SchemaNode, issue: SchemaIssue): string {
  const segments = issue.schemaPath.replace(/^#\/?/, "").split("/").filter(Boolean).map(unescapePointer);
  const keyword = segments.pop() ?? issue.keyword;
  const chain: SchemaNode[] = [root];
  let node: unknown = root;
  for (const segment of segments) {
    node = isNode(node) ? node[segment] : undefined;
    if (isNode(node)) chain.push(node);
  }
  const deepest = chain[chain.length - 1];
  if (keyword === "required") {
    const missing = deepest.properties && (deepest.properties as Record<string, unknown>)[String(issue.params.missingProperty)];
    if (isNode(missing)) chain.push(missing);
  }
  const last = chain[chain.length - 1];
  const specific = last["x-errors"]?.[keyword];
  if (specific) return specific;
  for (let at = chain.length - 1; at >= 0; at -= 1) {
    const text = chain[at]["x-error"];
    if (text) return text;
  }
  return `${issue.instancePath || "body"} ${issue.message ?? "is not valid"}`;
}

const unescapePointer = (segment: string): string => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/** The value, typed by its schema, or a ValidationError with the contract's text. */
export function check<T>(compiled: CompiledSchema<T>, value: unknown): T {
  if (compiled(value)) return value as T;
  const issue = compiled.errors?.[0];
  throw new ValidationError(issue ? issueMessage(compiled.schema, issue) : "Request is not valid");
}

/** Whether the value fits the schema, without saying why (path parameters: a miss is a 404). */
export const fits = <T>(compiled: CompiledSchema<T>, value: unknown): value is T => compiled(value);
