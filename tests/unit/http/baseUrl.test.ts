import { requestBaseUrl } from "../../../lib/http/baseUrl";
import type { HttpEvent } from "../../../lib/http/event";
import { apiGatewayEvent } from "../../support/apiGatewayEvent";

const event = (input: Parameters<typeof apiGatewayEvent>[0]) => apiGatewayEvent(input) as HttpEvent;

describe("requestBaseUrl", () => {
  it("uses the configured base URL when there is one", () => {
    expect(requestBaseUrl(event({ method: "GET", path: "/todo/api/v1.0/tasks" }), "/todo/api/v1.0", "https://x.example/p")).toBe(
      "https://x.example/p",
    );
  });

  it("uses API Gateway's domain and scheme", () => {
    expect(requestBaseUrl(event({ method: "GET", path: "/todo/api/v1.0/tasks" }), "/todo/api/v1.0")).toBe(
      "https://abc123.execute-api.us-east-1.amazonaws.com",
    );
  });

  it("keeps a stage prefix found in front of the service root", () => {
    expect(requestBaseUrl(event({ method: "GET", path: "/prod/todo/api/v1.0/tasks", stage: "prod" }), "/todo/api/v1.0")).toBe(
      "https://abc123.execute-api.us-east-1.amazonaws.com/prod",
    );
  });

  it("falls back to the Host header behind serverless-offline", () => {
    const e = event({ method: "GET", path: "/todo/api/v1.0/tasks", domainName: "offlineContext_domainName" });
    e.headers = { host: "localhost:3000" };
    expect(requestBaseUrl(e, "/todo/api/v1.0")).toBe("http://localhost:3000");
  });
});
