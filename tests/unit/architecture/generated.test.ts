import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  DOC_PAGES,
  generateBootRoutes,
  generateHandlerFiles,
  generateOpenApi,
  generateReadme,
  generateRouteTable,
  generateValidators,
} from "../../../scripts/generate";

const ROOT = join(__dirname, "../../..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

/** What `npm run generate` derives from the schemas and the registry is committed as it would write it. */
describe("generated sources", () => {
  it("has the validators the schemas compile to", () => {
    expect(read("lib/http/schemas/validators.generated.ts")).toBe(generateValidators());
  });

  it("has the catch-all's route table of the registry", () => {
    expect(read("lib/http/routes/routeTable.generated.ts")).toBe(generateRouteTable());
  });

  it("has the type of the handler modules on disk, which an entry's handler must be", () => {
    expect(read("lib/http/routes/handlerFiles.generated.ts")).toBe(generateHandlerFiles());
  });

  it("has the boot routes a site's relay forwards, of the registry (lib/wire)", () => {
    expect(read("lib/wire/bootRoutes.generated.ts")).toBe(generateBootRoutes());
  });

  it.each(["tasks", "provisioning"] as const)("has the %s service's OpenAPI document of the registry and schemas", (service) => {
    expect(read(`lib/http/openapi/${service}.generated.json`)).toBe(generateOpenApi(service));
  });

  it.each(DOC_PAGES)("has the route tables of the registry in %s", (page) => {
    const text = read(page);
    expect(text).toBe(generateReadme(text));
  });

  it("finds the route tables it checks", () => {
    expect(read("docs/tasks.md")).toContain("| PUT | `/todo/api/v1.0/tasks/{id}` |");
    expect(read("docs/provisioning.md")).toContain("| GET | `/api/{version}/nodes/{identifier}` |");
  });
});
