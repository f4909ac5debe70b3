import provisioningDocument from "../../../lib/http/openapi/provisioning.generated.json";
import tasksDocument from "../../../lib/http/openapi/tasks.generated.json";
import { ROUTES } from "../../../lib/http/routes";
import { methodsAt } from "../../../lib/http/routeTable";

const DOCUMENTS = [
  { document: tasksDocument, prefix: "/todo/api/v1.0" },
  { document: provisioningDocument, prefix: "/api/{version}" },
];

/** Every operation of both documents, as "METHOD /registry/path". */
const documented = (): string[] =>
  DOCUMENTS.flatMap(({ document, prefix }) =>
    Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
      // A path's own `servers` (RackHD 2.0's hooks) is no operation.
      Object.keys(operations)
        .filter((key) => key !== "servers")
        .map((method) => `${method.toUpperCase()} ${prefix}${path}`),
    ),
  );

describe("the OpenAPI documents", () => {
  it("list exactly the registry's API routes (the console's page and assets are in neither)", () => {
    const apiRoutes = ROUTES.filter((route) => route.service !== "console");
    // A greedy parameter ({path+}) is a parameter like any other to OpenAPI.
    expect(documented().sort()).toEqual(apiRoutes.map((route) => `${route.method} ${route.path.replace(/\{(\w+)\+\}/g, "{$1}")}`).sort());
  });

  it("list nothing the catch-all calls unknown", () => {
    for (const operation of documented()) {
      const [method, path] = operation.split(" ");
      const concrete = path.replace("{version}", "1.1").replace(/\{[^}]+\}/g, "x");
      expect({ operation, served: methodsAt(concrete).includes(method) }).toEqual({ operation, served: true });
    }
  });

  it("declare every error status of the shared stack, with the service's error body", () => {
    const createTask = tasksDocument.paths["/tasks"].post.responses;
    expect(Object.keys(createTask)).toEqual(["201", "400", "401", "403", "409", "413", "422", "429", "500", "503", "507"]);
    expect(tasksDocument.paths["/tasks"].post.parameters).toContainEqual(
      expect.objectContaining({ name: "Idempotency-Key", in: "header" }),
    );
    expect(createTask["503"].headers).toHaveProperty("Retry-After");
    // Failed sign-ins are limited (issue 35 §9), and say when to try again.
    expect(createTask["429"].headers).toHaveProperty("Retry-After");
    expect(createTask["401"].content["application/json"].schema.$ref).toBe("#/components/schemas/TaskError");
    const profiles = provisioningDocument.paths["/profiles"].get;
    // Open, or under BOOT_VIA_RELAY=on through a site's relay only.
    expect(profiles.security).toEqual([{}, { relayToken: [] }]);
    expect(profiles.responses["200"].content).toHaveProperty("text/plain");
  });
});
