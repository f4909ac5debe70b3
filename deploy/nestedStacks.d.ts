/** The roles' nested template's file name, beside the root template in the package directory. */
export const NESTED_TEMPLATE: string;
/** How many nested stacks hold the HTTP API's routes and integrations. */
export const ROUTE_STACKS: number;
/** The file name of the routes' nested template `n` (1 to ROUTE_STACKS). */
export function routesFile(n: number): string;
/** A CloudFormation resource: its properties are any JSON. */
// biome-ignore lint/suspicious/noExplicitAny: a template's properties are any JSON, read by the tests as they are
type Resource = Record<string, any>;

/** Moves resources of a template into a nested stack; answers the nested template. */
export function moveToNestedStack(
  template: { Resources: Record<string, unknown> },
  options: { stack: string; ids: string[]; templateUrl: unknown; description: string },
): { Parameters: Record<string, unknown>; Resources: Record<string, Resource>; Outputs?: Record<string, unknown> };
/** The routes and integrations, moved into the route stacks; answers each part's file and template. */
export function splitRoutes(
  template: { Resources: Record<string, unknown> },
  templateUrlOf: (file: string) => unknown,
): { file: string; template: { Parameters: Record<string, unknown>; Resources: Record<string, Resource> } }[];
