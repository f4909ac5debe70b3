import type { Endpoint } from "../http/routes/endpoint";

/*
 * The registry as it may grow (issue 36 §3): the deploy tier packages the stack with the registry
 * grown to 200 functions (LAYOUT_CHECK_FUNCTIONS=200) and checks that every stack of the layout
 * (deploy/nestedStacks.js) stays under its bound. Never deployed: deploy/functions.js refuses a
 * `deploy` with it set.
 */

/** The setting: package as if the service had this many functions. */
export const LAYOUT_CHECK_SETTING = "LAYOUT_CHECK_FUNCTIONS";

/**
 * `routes` and `extra` more endpoints, copies of its entries in turn: each its own function and
 * path (under /layout-check/<n>), with its original's handler, methods and data access (so its
 * original's role: a new endpoint mostly reads and writes what others do).
 */
export function grownRoutes(routes: readonly Endpoint[], extra: number): Endpoint[] {
  if (!Number.isSafeInteger(extra) || extra < 0)
    throw new Error(`${LAYOUT_CHECK_SETTING} must leave 0 or more functions to add (got ${extra})`);
  const copies = Array.from({ length: extra }, (_, n) => {
    const original = routes[n % routes.length];
    return { ...original, function: `layoutCheck${n + 1}`, path: `/layout-check/${n + 1}${original.path}` };
  });
  return [...routes, ...copies];
}

/** The setting's value: undefined when unset, else a whole number of functions. */
export function layoutCheckFunctions(env: Record<string, string | undefined>): number | undefined {
  const value = env[LAYOUT_CHECK_SETTING]?.trim();
  if (value === undefined || value === "") return undefined;
  if (!/^\d{1,4}$/.test(value)) throw new Error(`${LAYOUT_CHECK_SETTING} must be a number of functions (got "${value}")`);
  return Number(value);
}
