import {
  CapacityError,
  ConfigError,
  ConflictError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  ValidationError,
} from "../../../lib/errors";
import { errorResponse } from "../../../lib/http/errorMapping";

const config = { authFailureStatus: 401 as const, authRealm: 'My "realm"' };
const parse = (r: { body?: string }) => JSON.parse(r.body ?? "");

describe("errorResponse", () => {
  it.each([
    [new ValidationError("title is required"), 400, { error: "Bad request", message: "title is required" }],
    [new NotFoundError("Not found"), 404, { error: "Not found" }],
    [new MethodNotAllowedError("no", ["GET"]), 405, { error: "Method not allowed", message: "no" }],
    [new ConflictError("taken"), 409, { error: "Conflict", message: "taken" }],
    [new PayloadTooLargeError("big"), 413, { error: "Payload too large", message: "big" }],
    [new CapacityError("full"), 507, { error: "Insufficient storage", message: "full" }],
    [new UnauthorizedError("whatever"), 401, { error: "Unauthorized access" }],
    [new Error("secret internals"), 500, { error: "Internal server error" }],
    [new ConfigError("TASKS_AUTH must be"), 500, { error: "Internal server error" }],
  ])("maps %p to %i with the Flask body", (error, status, body) => {
    const response = errorResponse(error, "tasks", config);
    expect(response.statusCode).toBe(status);
    expect(parse(response)).toEqual(body);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
  });

  it("speaks RackHD's {message} form", () => {
    expect(parse(errorResponse(new NotFoundError("Could not find node with identifier x"), "rackhd", config))).toEqual({
      message: "Could not find node with identifier x",
    });
    expect(parse(errorResponse(new UnauthorizedError("x"), "rackhd", config))).toEqual({ message: "Unauthorized access" });
    expect(parse(errorResponse(new TypeError("boom"), "rackhd", config))).toEqual({ message: "Internal server error" });
  });

  it("challenges with the realm (quoted) on 401 and on the configured 403", () => {
    expect(errorResponse(new UnauthorizedError("x"), "tasks", config).headers["www-authenticate"]).toBe('Basic realm="My \\"realm\\""');
    const forbidden = errorResponse(new UnauthorizedError("x"), "tasks", { ...config, authFailureStatus: 403 });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.headers["www-authenticate"]).toMatch(/^Basic realm=/);
  });

  it("lists the allowed methods on 405", () => {
    expect(errorResponse(new MethodNotAllowedError("x", ["GET", "PUT"]), "tasks", config).headers.allow).toBe("GET, PUT");
  });
});

describe("errors from another bundle's copy of lib/errors", () => {
  it("are still recognised (the shared store may throw them)", () => {
    jest.isolateModules(() => {
      // A second module instance stands for a second esbuild bundle in the same process.
      const other = require("../../../lib/errors") as typeof import("../../../lib/errors");
      const response = errorResponse(new other.CapacityError("full"), "tasks", config);
      expect(response.statusCode).toBe(507);
      expect(errorResponse(new other.MethodNotAllowedError("x", ["GET"]), "tasks", config).headers.allow).toBe("GET");
    });
  });
});
