import fc from "fast-check";
import { normalizeIdentifier, normalizeMac } from "../../../lib/provisioning/mac";

describe("normalizeMac", () => {
  it.each([
    ["08:00:27:27:EB:12", "08:00:27:27:eb:12"],
    ["08-00-27-27-eb-12", "08:00:27:27:eb:12"],
    ["0800.2727.eb12", "08:00:27:27:eb:12"],
    ["08002727eb12", "08:00:27:27:eb:12"],
    [" 08:00:27:27:eb:12 ", "08:00:27:27:eb:12"],
  ])("reads %p", (text, mac) => {
    expect(normalizeMac(text)).toBe(mac);
  });

  it.each(["08:00:27:27:eb", "08:00:27:27:eb:1g", "08:00-27:27:eb:12", "fooey", "", "1.2.3.4"])("refuses %p", (text) => {
    expect(normalizeMac(text)).toBeUndefined();
  });

  it("is idempotent and always lowercase colon form", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 6, maxLength: 6 }), fc.constantFrom(":", "-"), fc.boolean(), (bytes, sep, upper) => {
        let text = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(sep);
        if (upper) text = text.toUpperCase();
        const mac = normalizeMac(text)!;
        expect(mac).toMatch(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
        expect(normalizeMac(mac)).toBe(mac);
      }),
    );
  });

  it("keeps identifiers that are not MACs as given", () => {
    expect(normalizeIdentifier("serial-123")).toBe("serial-123");
    expect(normalizeIdentifier("08-00-27-27-EB-12")).toBe("08:00:27:27:eb:12");
  });
});
