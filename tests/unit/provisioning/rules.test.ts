import fc from "fast-check";
import { isDomainError } from "../../../lib/errors";
import { checkRules, depthOf, RULE_NAMES, rulesPass, sourcesOf } from "../../../lib/provisioning/rules/rules";
import { chooseSku } from "../../../lib/provisioning/skus/skuMatching";

const catalogs = {
  dmi: { "System Information": { Manufacturer: "innotek GmbH", "Product Name": "VirtualBox" }, Memory: [{ Size: "2048 MB" }] },
  ohai: { cpu: { total: 2 }, dmi: { base_board: { manufacturer: "Oracle Corporation" } } },
};

describe("the rule language of SKUs and tags (anchor 0.10 under RackHD)", () => {
  it.each([
    [{ path: "dmi.System Information.Product Name", equals: "VirtualBox" }, true],
    [{ path: "dmi.System Information.Product Name", equals: "VMware" }, false],
    [{ path: "ohai.cpu.total", equals: 2 }, true],
    [{ path: "ohai.dmi.base_board.manufacturer", contains: "Oracle" }, true],
    [{ path: "ohai.dmi.base_board.manufacturer", notContains: "Oracle" }, false],
    [{ path: "dmi.System Information.Manufacturer", in: ["innotek GmbH", "QEMU"] }, true],
    [{ path: "dmi.System Information.Manufacturer", notIn: ["QEMU"] }, true],
    [{ path: "dmi.System Information.Product Name", regex: "^Virtual" }, true],
    [{ path: "dmi.System Information.Product Name", notRegex: "^Virtual" }, false],
    [{ path: "ohai.cpu.total", greaterThan: 1, lessThan: 4 }, true],
    [{ path: "ohai.cpu.total", min: 3 }, false],
    // The numeric rules pass when the value is not a number, so a missing path satisfies them.
    [{ path: "ohai.cpu.nothing", greaterThan: 100 }, true],
    [{ path: "dmi.Memory.0.Size", equals: "2048 MB" }, true],
    [{ path: "dmi..System Information..Product Name", equals: "VirtualBox" }, true],
    [{ path: "lshw.product", notEmpty: true }, false],
    [{ path: "lshw.product", empty: true }, true],
    [{ path: "ohai.cpu.total", integer: true, number: true }, true],
    [{ path: "dmi.Memory", array: true }, true],
  ])("%j → %s", (rule, passes) => {
    expect(rulesPass([rule], catalogs)).toBe(passes);
  });

  it("passes with no rules, and only when every rule passes", () => {
    expect(rulesPass([], {})).toBe(true);
    expect(
      rulesPass(
        [
          { path: "ohai.cpu.total", equals: 2 },
          { path: "ohai.cpu.total", equals: 3 },
        ],
        catalogs,
      ),
    ).toBe(false);
  });

  it("names the sources and the deepest path", () => {
    const rules = [{ path: "dmi.a.b.c" }, { path: "ohai.x" }, { path: "dmi.y" }];
    expect(sourcesOf(rules)).toEqual(["dmi", "ohai"]);
    expect(depthOf(rules)).toBe(4);
  });

  it("refuses rule keys anchor does not have (there is no notEquals), a rule without a path, a bad pattern", () => {
    const refusal = (rules: unknown) => {
      try {
        checkRules(rules, "SKU");
        return "accepted";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refusal([{ path: "dmi.x", notEquals: "y" }])).toMatch(/^SKU rule 0 has an unknown rule notEquals: one of equals, /);
    expect(refusal([{ equals: "y" }])).toBe('SKU rule 0 needs a path: "<source>.<key>…"');
    expect(refusal([{ path: "dmi", regex: "(" }])).toMatch(/regex must be a regular expression/);
    expect(refusal([{ path: "dmi", regex: "a".repeat(300) }])).toMatch(/at most 256 characters/);
    expect(refusal("x")).toBe("SKU rules must be an array of rules");
    expect(refusal([{ path: "dmi", __proto__: { equals: 1 } }])).toBe("accepted");
  });

  it("answers any checked rule set against any catalogs, and refuses anything else with a 400", () => {
    const rule = fc.record({ path: fc.string(), rule: fc.constantFrom(...RULE_NAMES, "bogus"), arg: fc.jsonValue() });
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 4 }), fc.dictionary(fc.string(), fc.jsonValue()), (drawn, data) => {
        const rules = drawn.map(({ path, rule: name, arg }) => ({ path, [name]: arg }));
        try {
          checkRules(rules, "Tag");
        } catch (error) {
          expect(isDomainError(error) && error.kind).toBe("bad-request");
          return;
        }
        expect(typeof rulesPass(rules, data)).toBe("boolean");
      }),
    );
  });
});

describe("SKU choice (RackHD's generate-sku)", () => {
  const sku = (id: string, createdAt: string, rules: { path: string; [rule: string]: unknown }[]) => ({
    id,
    name: id,
    rules,
    createdAt,
    updatedAt: createdAt,
  });

  it("takes the deepest matching rule path, then the newest SKU; null when none matches", () => {
    const any = sku("any", "2026-01-01T00:00:00.000Z", []);
    const deep = sku("deep", "2026-01-02T00:00:00.000Z", [{ path: "dmi.System Information.Product Name", equals: "VirtualBox" }]);
    const shallowNewer = sku("shallow", "2026-01-03T00:00:00.000Z", [{ path: "ohai.cpu", notEmpty: true }]);
    const deepNewer = sku("deep2", "2026-01-04T00:00:00.000Z", [{ path: "dmi.System Information.Manufacturer", contains: "innotek" }]);
    const miss = sku("miss", "2026-01-05T00:00:00.000Z", [{ path: "dmi.System Information.Product Name", equals: "VMware" }]);
    expect(chooseSku([any], catalogs)?.id).toBe("any");
    expect(chooseSku([any, deep, shallowNewer], catalogs)?.id).toBe("deep");
    expect(chooseSku([deepNewer, deep, any], catalogs)?.id).toBe("deep2");
    expect(chooseSku([miss], catalogs)).toBeNull();
  });
});
