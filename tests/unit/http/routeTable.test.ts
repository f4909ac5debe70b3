import { ROUTES } from "../../../lib/http/routes";
import { ROUTE_TABLE } from "../../../lib/http/routes/routeTable.generated";
import { methodsAt } from "../../../lib/http/routeTable";

describe("the catch-all's route table", () => {
  it("is the registry's methods and paths", () => {
    expect(ROUTE_TABLE.map(([method, path]) => `${method} ${path}`)).toEqual(ROUTES.map((route) => `${route.method} ${route.path}`));
  });

  it("finds the methods served at a path", () => {
    expect(methodsAt("/todo/api/v1.0/tasks").sort()).toEqual(["GET", "POST"]);
    expect(methodsAt("/todo/api/v1.0/tasks/17").sort()).toEqual(["DELETE", "GET", "PUT"]);
    expect(methodsAt("/todo/api/v1.0/tasks/17/x")).toEqual([]);
    expect(methodsAt("/nope")).toEqual([]);
  });
});
