import { readSettings } from "../../../lib/config/settings";
import { ROUTES } from "../../../lib/http/routes";
import { methodsOf } from "../../../lib/http/routes/endpoint";
import {
  GATEWAY_AUTHORIZER,
  gatewayAuthorizer,
  httpApiAuthorizers,
  serverlessFunctions,
  stageAuthorizer,
} from "../../../lib/http/routes/serverlessFunctions";

/** Issue 55: OIDC_AUTHORIZER=gateway, the HTTP API's JWT authorizer on the routes that ask for credentials (the deploy tier packages it). */
const GATEWAY = { OIDC_ISSUER: "https://idp.example.com", OIDC_AUDIENCE: "rackhd,urn:rackhd:api", OIDC_AUTHORIZER: "gateway" };

describe("the gateway's JWT authorizer", () => {
  it("is declared with the provider's issuer and audiences only when OIDC_AUTHORIZER=gateway", () => {
    expect(httpApiAuthorizers(readSettings({}))).toEqual({});
    expect(httpApiAuthorizers(readSettings({ ...GATEWAY, OIDC_AUTHORIZER: "function" }))).toEqual({});
    expect(httpApiAuthorizers(readSettings(GATEWAY))).toEqual({
      [GATEWAY_AUTHORIZER]: {
        type: "jwt",
        identitySource: "$request.header.Authorization",
        issuerUrl: "https://idp.example.com",
        audience: ["rackhd", "urn:rackhd:api"],
      },
    });
  });

  it("guards every route that asks for credentials as the stage is configured, and no other", () => {
    expect(gatewayAuthorizer(readSettings({ ...GATEWAY, OIDC_AUTHORIZER: "function" }))).toBeUndefined();
    const guarded = (env: Record<string, string>) => {
      const functions = serverlessFunctions(
        "memory",
        ROUTES,
        undefined,
        undefined,
        undefined,
        undefined,
        "prod",
        gatewayAuthorizer(readSettings(env)),
      );
      return Object.values(functions)
        .flatMap((fn) => fn.events)
        .filter((event) => "httpApi" in event && event.httpApi !== "*" && event.httpApi.authorizer?.name === GATEWAY_AUTHORIZER).length;
    };
    const count = (auth: readonly string[]) =>
      ROUTES.filter((route) => auth.includes(route.auth)).flatMap((route) => methodsOf(route)).length;
    expect(guarded({ ...GATEWAY, PROVISIONING_AUTH: "on" })).toBe(count(["northbound"]));
    expect(guarded({ ...GATEWAY, PROVISIONING_AUTH: "on", TASKS_AUTH: "all" })).toBe(count(["northbound", "tasks", "tasksList"]));
    expect(guarded({ ...GATEWAY, PROVISIONING_AUTH: "off" })).toBe(0);
  });

  it("takes a deployed stage's defaults (PROVISIONING_AUTH on), and the local stage's settings as they are", () => {
    const guards = (stage: string) => stageAuthorizer(GATEWAY, stage, { PROVISIONING_AUTH: "on" });
    const listNodes = ROUTES.find((route) => route.function === "listNodes")!;
    expect(guards("prod")?.(listNodes)).toBe(true);
    expect(guards("local")?.(listNodes)).toBe(false);
  });
});
