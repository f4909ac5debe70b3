import fc from "fast-check";
import { IDENTIFIERS_MAX, NAME_MAX } from "../../../../lib/http/provisioning/fields";
import * as validate from "../../../../lib/http/schemas/validators.generated";
import { check, fits } from "../../../../lib/http/validation";
import { verdict } from "../../../support/schemaVerdict";

describe("the POST /nodes body schema", () => {
  it("takes a named node with RackHD's fields and keeps extra keys", () => {
    const body = {
      name: "n1",
      profile: "diskboot.ipxe",
      identifiers: ["00:1E:67:98:BC:7E", "serial-1"],
      autoDiscover: "false",
      id: "1234ABCD1234abcd1234abcd",
    };
    expect(check(validate.NewNodeBody, body)).toEqual(body);
  });

  it.each([
    [{}, "JSON Schema Violation: name is required"],
    [{ name: 5 }, `JSON Schema Violation: name must be a non-empty string of at most ${NAME_MAX} characters`],
    [{ name: "" }, `JSON Schema Violation: name must be a non-empty string of at most ${NAME_MAX} characters`],
    [{ name: "n".repeat(NAME_MAX + 1) }, `JSON Schema Violation: name must be a non-empty string of at most ${NAME_MAX} characters`],
    [{ name: "n", type: "toaster" }, "JSON Schema Violation: type must be one of compute, switch, dae, pdu, mgmt, enclosure"],
    [{ name: "n", identifiers: "08:00:27:27:eb:12" }, expect.stringContaining("identifiers must be an array")],
    [{ name: "n", identifiers: [1] }, expect.stringContaining("identifiers must be an array")],
    [{ name: "n", identifiers: ["x".repeat(4000)] }, expect.stringContaining("identifiers must be an array")],
    [
      { name: "n", identifiers: Array.from({ length: IDENTIFIERS_MAX + 1 }, (_, i) => `id-${i}`) },
      expect.stringContaining("identifiers must be an array"),
    ],
    [{ name: "n", id: "xyz" }, "JSON Schema Violation: id must be 24 hexadecimal characters"],
    [{ name: "n", autoDiscover: "yes" }, "JSON Schema Violation: autoDiscover must be a boolean"],
    [{ name: "n", obmSettings: {} }, expect.stringContaining("obmSettings must be an array")],
    [{ name: "n", obmSettings: [{ config: {} }] }, "OBM setting needs a service name"],
    [{ name: "n", tags: [1] }, expect.stringContaining("tags must be an array")],
    [{ name: "n", relations: {} }, expect.stringContaining("relations must be an array")],
    [{ name: "n", sku: 3 }, "JSON Schema Violation: sku must be a string or null"],
    [[], "JSON Schema Violation: body must be a JSON object"],
    ["n", "JSON Schema Violation: body must be a JSON object"],
  ])("refuses %p with RackHD's text", (body, text) => {
    expect(verdict(validate.NewNodeBody, body)).toEqual(text);
  });

  it("answers every JSON value with ok or a 400 text, never anything else", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record({ name: fc.jsonValue(), identifiers: fc.jsonValue(), type: fc.jsonValue() }, { requiredKeys: [] }),
        ),
        (body) => {
          const answer = verdict(validate.NewNodeBody, body);
          expect(answer === "ok" || answer.startsWith("JSON Schema Violation: ") || answer.startsWith("OBM ")).toBe(true);
        },
      ),
    );
  });

  it("lets no identifier through that a DynamoDB key could not hold (1 KB)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary", maxLength: 600 }), { maxLength: 70 }), (identifiers) => {
        if (verdict(validate.NewNodeBody, { name: "n", identifiers }) === "ok") {
          expect(identifiers.length).toBeLessThanOrEqual(IDENTIFIERS_MAX);
          for (const id of identifiers) expect(Buffer.byteLength(id)).toBeLessThanOrEqual(NAME_MAX * 4);
        }
      }),
    );
  });
});

describe("the PATCH /nodes/{id} body schema", () => {
  it("accepts any subset, and a whole node echoed back", () => {
    expect(verdict(validate.NodePatchBody, { status: "available" })).toBe("ok");
    expect(
      verdict(validate.NodePatchBody, { id: "whatever", name: "n", createdAt: "x", workflows: [], catalogs: [], terraform: true }),
    ).toBe("ok");
  });
});

describe("the POST /nodes/{id}/obm body schema", () => {
  it("takes one setting or an array of them", () => {
    expect(verdict(validate.ObmSettingsBody, { service: "noop-obm-service" })).toBe("ok");
    expect(verdict(validate.ObmSettingsBody, [{ service: "ipmi-obm-service", config: { host: "h" } }])).toBe("ok");
  });

  it.each([
    [null, "OBM setting must be an object with service and config"],
    ["noop", "OBM setting must be an object with service and config"],
    [[], "At least one OBM setting is required"],
    [{}, "OBM setting needs a service name"],
    [{ service: 1 }, "OBM setting needs a service name"],
    [{ service: "noop-obm-service", config: [] }, "OBM config must be an object with at most 64 keys"],
    [["noop"], "OBM setting must be an object with service and config"],
  ])("refuses %p", (body, text) => {
    expect(verdict(validate.ObmSettingsBody, body)).toBe(text);
  });
});

describe("path parameters and queries", () => {
  it("fit RackHD's three API roots only, and bounded identifiers", () => {
    for (const version of ["1.1", "current", "common"]) expect(fits(validate.NodeParams, { version, identifier: "n" })).toBe(true);
    expect(fits(validate.NodeParams, { version: "2.0", identifier: "n" })).toBe(false);
    expect(fits(validate.NodeParams, { version: "1.1", identifier: "x".repeat(4000) })).toBe(false);
  });

  it("bound query values", () => {
    expect(verdict(validate.Query, { macs: ["08:00:27:27:eb:12"] })).toBe("ok");
    expect(verdict(validate.Query, { macs: ["x".repeat(1025)] })).toBe(
      "Query parameters take at most 64 values of at most 1024 characters each",
    );
  });
});
