import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ALL_ROUTES, methodsAt } from "../../../lib/http/routeTable";

describe("route table", () => {
  it("lists exactly the httpApi routes serverless.yml declares", () => {
    const yml = readFileSync(join(__dirname, "../../../serverless.yml"), "utf8");
    const declared = [...yml.matchAll(/httpApi: \{ method: (\w+), path: "?([^"\s]+?)"? \}/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(declared.sort()).toEqual(ALL_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it("finds the methods served at a path", () => {
    expect(methodsAt("/todo/api/v1.0/tasks").sort()).toEqual(["GET", "POST"]);
    expect(methodsAt("/todo/api/v1.0/tasks/17").sort()).toEqual(["DELETE", "GET", "PUT"]);
    expect(methodsAt("/todo/api/v1.0/tasks/17/x")).toEqual([]);
    expect(methodsAt("/nope")).toEqual([]);
  });
});

describe("serverless.yml", () => {
  it("binds every function to a handler and gives each one a role", () => {
    const yml = readFileSync(join(__dirname, "../../../serverless.yml"), "utf8");
    const functions = [...yml.matchAll(/\n  (\w+):\n    handler: (\S+)\n    role: \$\{self:custom\.roles\.\$\{param:store\}\.(\w+)\}\n/g)];
    expect(functions).toHaveLength(ALL_ROUTES.length + 1); // + the $default fallback
    for (const [, , , group] of functions) expect(["noData", "taskRead", "taskWrite", "provisioningRead", "provisioningWrite"]).toContain(group);
  });
});
