import { assertSafeDeploy, invocation } from "../../../deploy/deployGuard";

const cli = (...args: string[]) => ["node", "serverless", ...args];
const users = { AUTH_USERS_PARAMETER: "/svc/prod/users" };

describe("a deployment is secure by default (issue 25)", () => {
  it("reads the command and the stage as the Serverless CLI takes them", () => {
    expect(invocation(cli("package", "--stage", "prod"))).toEqual({ command: "package", stage: "prod" });
    expect(invocation(cli("deploy", "-s", "lab"))).toEqual({ command: "deploy", stage: "lab" });
    expect(invocation(cli("deploy", "--stage=qa"))).toEqual({ command: "deploy", stage: "qa" });
    expect(invocation(cli("package"))).toEqual({ command: "package", stage: "dev" });
  });

  it("refuses a deployed stage with no users, naming the setting to give", () => {
    expect(() => assertSafeDeploy(cli("deploy", "--stage", "prod"), {})).toThrow(
      /Stage "prod" asks for credentials \(PROVISIONING_AUTH=on\) but has no users: set AUTH_USERS_PARAMETER/,
    );
    expect(() => assertSafeDeploy(cli("package"), { AUTH_USERS_PARAMETER: "  " })).toThrow(/AUTH_USERS_PARAMETER/);
    expect(() => assertSafeDeploy(cli("package"), { PROVISIONING_AUTH: "on", TASKS_AUTH: "all" })).toThrow(/no users/);
  });

  it("deploys with users from SSM or AUTH_USERS, or from an identity provider (issue 55)", () => {
    expect(() => assertSafeDeploy(cli("deploy", "--stage", "prod"), users)).not.toThrow();
    expect(() => assertSafeDeploy(cli("deploy", "--stage", "prod"), { AUTH_USERS: "admin:$scrypt$..." })).not.toThrow();
    expect(() => assertSafeDeploy(cli("deploy", "--stage", "prod"), { OIDC_ISSUER: "https://idp.example.com" })).not.toThrow();
    expect(() => assertSafeDeploy(cli("deploy", "--stage", "prod"), { OIDC_ISSUER: " " })).toThrow(/or OIDC_ISSUER and OIDC_AUDIENCE/);
    // The task list's Basic form asks for credentials too, whatever the operators' API says.
    expect(() => assertSafeDeploy(cli("package"), { PROVISIONING_AUTH: "On", TASKS_AUTH: "list" })).toThrow(/no users/);
    expect(() => assertSafeDeploy(cli("package"), { PROVISIONING_AUTH: "On", TASKS_AUTH: "off" })).not.toThrow();
  });

  it("refuses an open operators' API unless ALLOW_OPEN_PROVISIONING=yes says so", () => {
    expect(() => assertSafeDeploy(cli("deploy", "--stage", "lab"), { PROVISIONING_AUTH: "off" })).toThrow(
      /^PROVISIONING_AUTH=off would let anyone on the internet create nodes and run workflows on stage "lab": leave it on, or set ALLOW_OPEN_PROVISIONING=yes/,
    );
    expect(() =>
      assertSafeDeploy(cli("deploy", "--stage", "lab"), { PROVISIONING_AUTH: "off", ALLOW_OPEN_PROVISIONING: "true" }),
    ).toThrow();
    expect(() =>
      assertSafeDeploy(cli("deploy", "--stage", "lab"), { PROVISIONING_AUTH: "off", ALLOW_OPEN_PROVISIONING: "yes" }),
    ).not.toThrow();
  });

  it("refuses a deployed stage that answers boot traffic no relay forwarded unless ALLOW_OPEN_BOOT=yes says so (issue 35 §2)", () => {
    expect(() => assertSafeDeploy(cli("deploy", "--stage", "prod"), { ...users, BOOT_VIA_RELAY: "off" })).toThrow(
      /^BOOT_VIA_RELAY=off would let anyone on the internet who knows a MAC fetch its boot profile, install script, machine credential and user-data on stage "prod": .*ALLOW_OPEN_BOOT=yes/,
    );
    expect(() => assertSafeDeploy(cli("package"), { ...users, BOOT_VIA_RELAY: "off", ALLOW_OPEN_BOOT: "true" })).toThrow(/ALLOW_OPEN_BOOT/);
    expect(() => assertSafeDeploy(cli("package"), { ...users, BOOT_VIA_RELAY: "off", ALLOW_OPEN_BOOT: "yes" })).not.toThrow();
    expect(() => assertSafeDeploy(cli("package"), { ...users, BOOT_VIA_RELAY: "on" })).not.toThrow();
    expect(() => assertSafeDeploy(cli("package", "--stage", "local"), { BOOT_VIA_RELAY: "off" })).not.toThrow();
  });

  it("lets the local stage and every other command (offline, print) through", () => {
    expect(() => assertSafeDeploy(cli("package", "--stage", "local"), {})).not.toThrow();
    expect(() => assertSafeDeploy(cli("offline", "--stage", "local"), {})).not.toThrow();
    expect(() => assertSafeDeploy(cli("print", "--format", "json"), {})).not.toThrow();
  });
});
