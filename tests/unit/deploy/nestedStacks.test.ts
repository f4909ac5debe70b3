import { moveToNestedStack, ROUTE_STACKS, routesFile, splitRoutes } from "../../../deploy/nestedStacks";

type Resources = Record<string, { Type: string; Properties: Record<string, any>; DependsOn?: string | string[] }>;

/** A root template as the framework compiles it: functions, the API, an integration and its routes per function. */
function compiled(functions: string[]): { Resources: Resources } {
  const resources: Resources = {
    HttpApi: { Type: "AWS::ApiGatewayV2::Api", Properties: {} },
    HttpApiInvokeRole: { Type: "AWS::IAM::Role", Properties: {} },
    FunctionsLogGroup: { Type: "AWS::Logs::LogGroup", Properties: {} },
  };
  for (const name of functions) {
    resources[`${name}LambdaFunction`] = { Type: "AWS::Lambda::Function", Properties: { Handler: `${name}.handler` } };
    resources[`HttpApiIntegration${name}`] = {
      Type: "AWS::ApiGatewayV2::Integration",
      Properties: {
        ApiId: { Ref: "HttpApi" },
        IntegrationUri: { "Fn::GetAtt": [`${name}LambdaFunction`, "Arn"] },
        CredentialsArn: { "Fn::GetAtt": ["HttpApiInvokeRole", "Arn"] },
      },
      DependsOn: "FunctionsLogGroup",
    };
    for (const method of ["Get", "Head"]) {
      resources[`HttpApiRoute${method}${name}`] = {
        Type: "AWS::ApiGatewayV2::Route",
        Properties: { ApiId: { Ref: "HttpApi" }, Target: { "Fn::Join": ["/", ["integrations", { Ref: `HttpApiIntegration${name}` }]] } },
      };
    }
  }
  return { Resources: resources };
}

describe("the stack layout (deploy/nestedStacks.js)", () => {
  it("moves each integration with its routes into one of the route stacks, the functions' ARNs and the API's id as parameters", () => {
    // Arrange
    const names = Array.from({ length: 40 }, (_, n) => `Fn${n}`);
    const template = compiled(names);
    // Act
    const nested = splitRoutes(template, (file) => `https://bucket/${file}`);
    // Assert: the root keeps the functions and what they share, and one stack resource a part.
    expect(nested.map((part) => part.file)).toEqual(Array.from({ length: ROUTE_STACKS }, (_, n) => routesFile(n + 1)));
    expect(
      Object.keys(template.Resources)
        .filter((id) => !id.endsWith("LambdaFunction"))
        .sort(),
    ).toEqual(["FunctionsLogGroup", "HttpApi", "HttpApiInvokeRole", ...nested.map((_, n) => `HttpRoutes${n + 1}`)].sort());
    const moved = nested.flatMap((part) => Object.keys(part.template.Resources));
    expect(moved).toHaveLength(3 * names.length);
    for (const [n, part] of nested.entries()) {
      const stack = template.Resources[`HttpRoutes${n + 1}`] as any;
      expect(stack.Type).toBe("AWS::CloudFormation::Stack");
      expect(stack.Properties.TemplateURL).toBe(`https://bucket/${routesFile(n + 1)}`);
      // What a moved resource waited for in the root, its stack waits for.
      expect(stack.DependsOn).toEqual(["FunctionsLogGroup"]);
      expect(Object.keys(stack.Properties.Parameters).sort()).toEqual(Object.keys(part.template.Parameters).sort());
      for (const [id, resource] of Object.entries(part.template.Resources as Resources)) {
        if (resource.Type !== "AWS::ApiGatewayV2::Integration") continue;
        const fn = id.replace("HttpApiIntegration", "");
        expect(resource.Properties.IntegrationUri).toEqual({ Ref: `${fn}LambdaFunctionArn` });
        expect(stack.Properties.Parameters[`${fn}LambdaFunctionArn`]).toEqual({ "Fn::GetAtt": [`${fn}LambdaFunction`, "Arn"] });
        expect(resource.Properties.ApiId).toEqual({ Ref: "HttpApi" });
        expect(resource.DependsOn).toBeUndefined();
        expect(part.template.Resources[`HttpApiRouteGet${fn}`].Properties.Target["Fn::Join"][1][1]).toEqual({ Ref: id });
      }
    }
  });

  it("never moves an endpoint's routes when another endpoint is added (each goes where its own id hashes)", () => {
    const placed = (names: string[]) => {
      const where = new Map<string, string>();
      for (const part of splitRoutes(compiled(names), (file) => file)) {
        for (const id of Object.keys(part.template.Resources)) where.set(id, part.file);
      }
      return where;
    };
    const before = placed(["A", "B", "C", "D"]);
    const after = placed(["A", "B", "New", "C", "D"]);
    for (const [id, file] of before) expect(after.get(id)).toBe(file);
  });

  it("gives the root an output for what it reads of a moved resource, and moves a dependency on it to its stack", () => {
    // Arrange
    const template = {
      Resources: {
        Role: { Type: "AWS::IAM::Role", Properties: { Path: "/" } },
        Fn: {
          Type: "AWS::Lambda::Function",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub, not a template string
          Properties: { Role: { "Fn::GetAtt": ["Role", "Arn"] }, Name: { "Fn::Sub": "${Role}-x" } },
          DependsOn: ["Role"],
        },
      } as Resources,
    };
    // Act
    const nested = moveToNestedStack(template, { stack: "Roles", ids: ["Role"], templateUrl: "u", description: "d" });
    // Assert
    expect(nested.Outputs).toEqual({ RoleArn: { Value: { "Fn::GetAtt": ["Role", "Arn"] } }, RoleName: { Value: { Ref: "Role" } } });
    expect(template.Resources.Fn).toEqual({
      Type: "AWS::Lambda::Function",
      Properties: {
        Role: { "Fn::GetAtt": ["Roles", "Outputs.RoleArn"] },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub, not a template string
        Name: { "Fn::Sub": ["${RoleName}-x", { RoleName: { "Fn::GetAtt": ["Roles", "Outputs.RoleName"] } }] },
      },
      DependsOn: ["Roles"],
    });
    expect((template.Resources as any).Roles.Metadata.TemplateSha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
