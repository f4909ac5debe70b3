import { ValidationError } from "../../../lib/errors";
import { serviceSupportsNode } from "../../../lib/provisioning/obmServices/obmLibrary";
import { assertServicesSupported, parseObmSettings, upsertObmSettings } from "../../../lib/provisioning/obmServices/obmSetting";

describe("OBM settings", () => {
  it("parse one setting or an array, defaulting config to {}", () => {
    expect(parseObmSettings({ service: "noop-obm-service" })).toEqual([{ service: "noop-obm-service", config: {} }]);
    expect(parseObmSettings([{ service: "ipmi-obm-service", config: { host: "h" } }])).toHaveLength(1);
  });

  it("refuse an unknown service (shapes are the schema's to check)", () => {
    expect(() => parseObmSettings({ service: "x-obm-service" })).toThrow(new ValidationError("Unknown OBM service x-obm-service"));
  });

  it("check the node type (RackHD's ObmSettings rules)", () => {
    expect(serviceSupportsNode("noop-obm-service", { type: "compute" })).toBe(true);
    expect(serviceSupportsNode("noop-obm-service", { type: "switch" })).toBe(false);
    expect(serviceSupportsNode("panduit-obm-service", { type: "enclosure" })).toBe(true);
    expect(serviceSupportsNode("panduit-obm-service", { type: "compute", sku: "noop" })).toBe(true);
    expect(serviceSupportsNode("panduit-obm-service", { type: "compute", sku: null })).toBe(false);
    expect(serviceSupportsNode("snmp-obm-service", { type: "switch" })).toBe(true);
    expect(() => assertServicesSupported([{ service: "ipmi-obm-service", config: {} }], { type: "pdu" })).toThrow(
      "Service ipmi-obm-service is not supported in current node",
    );
  });

  it("upsert per service and keep stored secrets echoed as REDACTED", () => {
    const current = [{ service: "ipmi-obm-service", config: { host: "a", password: "s3cret" } }];
    const next = upsertObmSettings(current, [
      { service: "ipmi-obm-service", config: { host: "b", password: "REDACTED" } },
      { service: "noop-obm-service", config: {} },
    ]);
    expect(next).toEqual([
      { service: "ipmi-obm-service", config: { host: "b", password: "s3cret" } },
      { service: "noop-obm-service", config: {} },
    ]);
    expect(upsertObmSettings(next, [{ service: "noop-obm-service", config: {} }])).toHaveLength(2);
  });
});
