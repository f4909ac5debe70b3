import { browserGuard, foreignOrigin, mediaType, refuseFormBody, sameOrigin } from "../../../lib/http/middleware/browserGuard";
import { apiGatewayEvent } from "../../support/apiGatewayEvent";

/** What a browser's page on another origin sends, told apart from the service's own page and from clients that are no browser. */
const HOST = "api.example.com";
const event = (method: string, headers: Record<string, string>) =>
  apiGatewayEvent({ method, path: "/api/1.1/nodes", headers, domainName: HOST });

describe("a change from another origin's page", () => {
  it("is the service's own when its Origin is the host it was sent to", () => {
    expect(sameOrigin(event("POST", { origin: `https://${HOST}` }))).toBe(true);
    expect(sameOrigin(event("POST", { origin: "https://evil.example" }))).toBe(false);
    expect(sameOrigin(event("POST", { origin: "null" }))).toBe(false);
    expect(sameOrigin(event("POST", {}))).toBe(false);
  });

  it("is foreign by its Origin unless CORS_ORIGINS names it (not by `*`), or by Sec-Fetch-Site: cross-site without one", () => {
    expect(foreignOrigin(event("POST", { origin: "https://evil.example" }), "*")).toBe("Origin https://evil.example");
    expect(foreignOrigin(event("POST", { origin: "https://ops.example" }), ["https://ops.example"])).toBeUndefined();
    expect(foreignOrigin(event("POST", { origin: `https://${HOST}`, "sec-fetch-site": "cross-site" }), "*")).toBeUndefined();
    expect(foreignOrigin(event("POST", { "sec-fetch-site": " Cross-Site " }), "*")).toBe("Sec-Fetch-Site: cross-site");
    expect(foreignOrigin(event("POST", { "sec-fetch-site": "same-origin" }), "*")).toBeUndefined();
    // RackHD's clients, the relay and machines send neither.
    expect(foreignOrigin(event("POST", {}), "*")).toBeUndefined();
  });

  it("is refused (403) before anything else runs; a read is not", async () => {
    const guard = browserGuard().before as (request: { event: unknown }) => void;
    expect(() => guard({ event: event("DELETE", { origin: "https://evil.example" }) })).toThrow(/another site's page is refused/);
    expect(() => guard({ event: event("GET", { origin: "https://evil.example" }) })).not.toThrow();
  });
});

describe("a form's content type", () => {
  it("is read without its parameters, in lower case", () => {
    expect(mediaType(event("POST", { "content-type": "Text/Plain; charset=UTF-8" }))).toBe("text/plain");
    expect(mediaType(event("POST", {}))).toBeUndefined();
  });

  it("is refused on a change, and nothing else is", () => {
    for (const type of ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"])
      expect(() => refuseFormBody(event("POST", { "content-type": type }))).toThrow("Content-Type must be application/json");
    expect(() => refuseFormBody(event("POST", { "content-type": "application/json" }))).not.toThrow();
    expect(() => refuseFormBody(event("POST", {}))).not.toThrow();
    expect(() => refuseFormBody(event("GET", { "content-type": "text/plain" }))).not.toThrow();
  });
});
