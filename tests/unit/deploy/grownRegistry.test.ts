import { grownRoutes, layoutCheckFunctions } from "../../../lib/deploy/grownRegistry";
import { ROUTES } from "../../../lib/http/routes";

describe("the registry grown for the layout check (LAYOUT_CHECK_FUNCTIONS)", () => {
  it("adds copies of the entries in turn, each its own function and path, with its original's handler and data access", () => {
    // Act
    const grown = grownRoutes(ROUTES, ROUTES.length + 2);
    // Assert
    expect(grown).toHaveLength(2 * ROUTES.length + 2);
    expect(grown.slice(0, ROUTES.length)).toEqual(ROUTES);
    const first = grown[ROUTES.length];
    expect(first).toEqual({ ...ROUTES[0], function: "layoutCheck1", path: `/layout-check/1${ROUTES[0].path}` });
    expect(grown.at(-1)).toMatchObject({ function: `layoutCheck${ROUTES.length + 2}`, handler: ROUTES[1].handler, data: ROUTES[1].data });
    expect(new Set(grown.map((route) => route.function)).size).toBe(grown.length);
    expect(new Set(grown.map((route) => `${route.method} ${route.path}`)).size).toBe(grown.length);
  });

  it("adds nothing for 0, and refuses fewer than the registry has", () => {
    expect(grownRoutes(ROUTES, 0)).toEqual(ROUTES);
    expect(() => grownRoutes(ROUTES, -1)).toThrow("LAYOUT_CHECK_FUNCTIONS must leave 0 or more functions to add (got -1)");
  });

  it("reads the setting: unset or empty is none, a whole number is a count, anything else is refused naming it", () => {
    expect(layoutCheckFunctions({})).toBeUndefined();
    expect(layoutCheckFunctions({ LAYOUT_CHECK_FUNCTIONS: " " })).toBeUndefined();
    expect(layoutCheckFunctions({ LAYOUT_CHECK_FUNCTIONS: " 200 " })).toBe(200);
    for (const bad of ["2e2", "-5", "12345", "many"]) {
      expect(() => layoutCheckFunctions({ LAYOUT_CHECK_FUNCTIONS: bad })).toThrow(
        `LAYOUT_CHECK_FUNCTIONS must be a number of functions (got "${bad}")`,
      );
    }
  });
});
