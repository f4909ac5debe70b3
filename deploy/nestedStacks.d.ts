/** The roles' nested template's file name, beside the root template in the package directory. */
export const NESTED_TEMPLATE: string;
/** How many nested stacks hold the HTTP API's routes and integrations. */
export const ROUTE_STACKS: number;
/** The file name of the routes' nested template `n` (1 to ROUTE_STACKS). */
export function routesFile(n: number): string;
