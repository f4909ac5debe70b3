import { stackResources } from "../../../lib/deploy/serverlessRoles";

type Resource = { Type: string; Properties: Record<string, any> };
const resourcesOf = (...args: Parameters<typeof stackResources>) => stackResources(...args).Resources as Record<string, Resource>;
const actionsOf = (role: Resource): string[] =>
  (role.Properties.Policies?.[0].PolicyDocument.Statement ?? []).flatMap((statement: { Action: string | string[] }) =>
    [statement.Action].flat(),
  );
const rolesOf = (resources: Record<string, Resource>) =>
  Object.entries(resources).filter(([, resource]) => resource.Type === "AWS::IAM::Role");

describe("the stack's roles and deploy-time resources (lib/deploy/serverlessRoles.ts)", () => {
  it("gives the memory store's functions three roles by access class, none touching data", () => {
    // Act
    const resources = resourcesOf("memory", { authUsersParameter: "", tracing: false, alarmEmail: "" });
    // Assert
    expect(
      rolesOf(resources)
        .map(([name]) => name)
        .sort(),
    ).toEqual(["ApiFunctionRole", "DeadLettersRole", "UserListRole"]);
    expect(actionsOf(resources.ApiFunctionRole)).toEqual([]);
    expect(actionsOf(resources.DeadLettersRole)).toEqual(["sqs:SendMessage"]);
    for (const [, role] of rolesOf(resources)) {
      expect(role.Properties.ManagedPolicyArns).toEqual(["arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"]);
    }
    // No parameter, no address: no user-list policy, no subscription.
    expect(resources.AuthUsersParameterAccess).toBeUndefined();
    expect(resources.AlarmEmailSubscription).toBeUndefined();
  });

  it("gives the DynamoDB store's functions a role per set of needs: the table's actions, the stream, the bus and the queue where needed", () => {
    const resources = resourcesOf("dynamodb", { authUsersParameter: "", tracing: false, alarmEmail: "" });
    const roles = rolesOf(resources);
    expect(roles.length).toBeGreaterThan(40);
    expect(resources.NoDataRole.Properties.Policies).toBeUndefined();
    const all = roles.flatMap(([, role]) => actionsOf(role));
    for (const action of ["dynamodb:GetItem", "dynamodb:GetRecords", "events:PutEvents", "sqs:ReceiveMessage", "sqs:SendMessage"]) {
      expect(all).toContain(action);
    }
    // The queue's consumer may receive and delete; a sender only sends.
    const consumers = roles.filter(([, role]) => actionsOf(role).includes("sqs:ReceiveMessage"));
    expect(consumers.length).toBeGreaterThan(0);
    for (const [, role] of consumers) expect(role.Properties.Description).toContain("the delivery queue: consume");
    for (const [, role] of roles) expect(role.Properties.Description.length).toBeLessThanOrEqual(1000);
  });

  it("lets only the roles of functions that ask for credentials read the user list, traces when asked, and subscribes the alarm address", () => {
    // Act
    const resources = resourcesOf("memory", { authUsersParameter: "/svc/prod/users", tracing: true, alarmEmail: "ops@example.com" });
    // Assert
    expect(resources.AuthUsersParameterAccess.Properties.Roles).toEqual([{ Ref: "UserListRole" }]);
    expect(JSON.stringify(resources.AuthUsersParameterAccess.Properties.PolicyDocument)).toContain("parameter/svc/prod/users");
    for (const [, role] of rolesOf(resources))
      expect(role.Properties.ManagedPolicyArns).toContain("arn:aws:iam::aws:policy/AWSXRayDaemonWriteAccess");
    expect(resources.AlarmEmailSubscription.Properties).toEqual({
      TopicArn: { Ref: "AlarmTopic" },
      Protocol: "email",
      Endpoint: "ops@example.com",
    });
  });
});

describe("the relays' connections in the DynamoDB store's roles", () => {
  const statementsOf = (role: Resource) =>
    (role.Properties.Policies?.[0]?.PolicyDocument.Statement ?? []) as { Action: string[]; Resource: unknown[] }[];
  const connectionsResource = (role: Resource) =>
    statementsOf(role)
      .filter((statement) => statement.Action.includes("execute-api:ManageConnections"))
      .map((statement) => JSON.stringify(statement.Resource));

  it("lets a role close connections (DELETE) only where its function revokes relay credentials, and post (POST) only where it makes jobs", () => {
    const roles = rolesOf(resourcesOf("dynamodb", { authUsersParameter: "", tracing: false, alarmEmail: "" }));
    const grants = roles.map(([, role]) => connectionsResource(role).join(" ")).filter((text) => text !== "");
    expect(grants.filter((text) => text.includes("/*/DELETE/@connections/*"))).toHaveLength(1);
    expect(grants.some((text) => text.includes("/*/POST/@connections/*"))).toBe(true);
    expect(grants.every((text) => !(text.includes("DELETE") && text.includes("POST")))).toBe(true);
    const description = roles
      .map(([, role]) => String(role.Properties.Description))
      .find((text) => text.includes("closing the relays' connections"));
    expect(description).toMatch(/writes .*relayConnections/);
  });
});
