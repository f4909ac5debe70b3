import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateOpenApi, generateReadme, generateRouteTable, generateValidators } from "../../../scripts/generate";

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

  it.each(["tasks", "provisioning"] as const)("has the %s service's OpenAPI document of the registry and schemas", (service) => {
    expect(read(`lib/http/openapi/${service}.generated.json`)).toBe(generateOpenApi(service));
  });

  it("has the README's route tables of the registry", () => {
    const readme = read("README.md");
    expect(readme).toBe(generateReadme(readme));
    expect(readme).toContain("| PUT | `/todo/api/v1.0/tasks/{id}` |");
  });
});
