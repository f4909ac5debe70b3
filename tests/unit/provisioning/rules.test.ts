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

  it("matches on a linear-time engine: a pattern that backtracks cannot hold the function (issue 35 §6)", () => {
    // JavaScript's engine takes minutes on this (3.2 s at 26 characters, doubling with each); RE2 is linear.
    const hostile = { dmi: { "System Information": { "Product Name": `${"a".repeat(40)}!` } } };
    checkRules([{ path: "dmi.System Information.Product Name", regex: "^(a+)+$" }], "SKU");
    expect(rulesPass([{ path: "dmi.System Information.Product Name", regex: "^(a+)+$" }], hostile)).toBe(false);
    expect(rulesPass([{ path: "dmi.System Information.Product Name", notRegex: "^(a|aa)+$" }], hostile)).toBe(true);
    // RackHD's own rules (on-http's SKU packs) still match as before.
    const qemu = { dmi: { "System Information": { "Product Name": "Standard PC (i440FX + PIIX, 1996)" } } };
    expect(rulesPass([{ path: "dmi.System Information.Product Name", regex: "^Standard PC \\(i440FX.*\\)$" }], qemu)).toBe(true);
    expect(rulesPass([{ path: "dmi.System Information.Product Name", regex: "(?i)standard pc" }], qemu)).toBe(true);
  });

  it("refuses the constructs that need backtracking, naming the syntax it takes", () => {
    for (const pattern of ["(a)\\1", "a(?=b)", "(?<!x)y"]) {
      expect(() => checkRules([{ path: "dmi.x", regex: pattern }], "Tag")).toThrow(
        expect.objectContaining({ kind: "bad-request", message: expect.stringContaining("RE2 syntax") }),
      );
    }
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

/** Every operator both ways and at its boundaries (the mutation run found them tested one way only). */
describe("each rule operator, both ways and at its boundaries", () => {
  const at = (value: unknown, rule: Record<string, unknown>) => rulesPass([{ path: "c.v", ...rule }], { c: { v: value } });

  it.each([
    ["min", 5, 5, true],
    ["min", 4, 5, false],
    ["max", 5, 5, true],
    ["max", 6, 5, false],
    ["greaterThan", 5, 5, false],
    ["greaterThan", 6, 5, true],
    ["lessThan", 5, 5, false],
    ["lessThan", 4, 5, true],
    ["minLength", "abc", 3, true],
    ["minLength", "ab", 3, false],
    ["maxLength", "abc", 3, true],
    ["maxLength", "abcd", 3, false],
  ])("%s: %j against %j → %s", (rule, value, arg, passes) => {
    expect(at(value, { [rule]: arg })).toBe(passes);
  });

  it.each([
    ["ipv6", "fe80::1", true],
    ["ipv6", "10.0.0.1", false],
    ["ipv6", "::ffff:10.0.0.1", true],
    ["ipv4", "10.0.0.1", true],
    ["ipv4", "fe80::1", false],
    ["ip", "10.0.0.1", true],
    ["ip", "fe80::1", true],
    ["ip", "host", false],
    ["uuid", "123e4567-e89b-12d3-a456-426614174000", true],
    ["uuid", "123e4567", false],
    ["string", "x", true],
    ["string", 1, false],
    ["number", "1.5", true],
    ["number", " ", false],
    ["numeric", "-1.5", true],
    ["numeric", "1e3", false],
    ["integer", "-7", true],
    ["integer", "7.1", false],
    ["boolean", "true", true],
    ["boolean", "yes", false],
    ["array", [1], true],
    ["array", "1", false],
    ["required", "x", true],
    ["required", "", false],
    ["empty", "", true],
    ["empty", "x", false],
    ["notEmpty", "x", true],
    ["notEmpty", "", false],
  ])("%s of %j → %s, and an argument of false skips it", (rule, value, passes) => {
    expect(at(value, { [rule]: true })).toBe(passes);
    expect(at(value, { [rule]: false })).toBe(true);
  });

  it("holds the numeric rules' order for any numbers, and passes them for a value that is no number", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }), (n, arg) => {
        expect(at(n, { min: arg })).toBe(n >= arg);
        expect(at(n, { max: arg })).toBe(n <= arg);
        expect(at(n, { greaterThan: arg })).toBe(n > arg);
        expect(at(n, { lessThan: arg })).toBe(n < arg);
        expect(at(`${n}`, { min: arg })).toBe(n >= arg);
        expect(at("not a number", { min: arg, max: arg, greaterThan: arg, lessThan: arg })).toBe(true);
      }),
    );
  });

  it("makes each rule and its negation disagree, for any value", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 12 }),
        fc.string({ maxLength: 4 }),
        fc.array(fc.string({ maxLength: 4 }), { maxLength: 4 }),
        (value, part, list) => {
          expect(at(value, { contains: part })).toBe(!at(value, { notContains: part }));
          expect(at(value, { in: list })).toBe(!at(value, { notIn: list }));
          const pattern = part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
          expect(at(value, { regex: pattern })).toBe(!at(value, { notRegex: pattern }));
          expect(at(value, { equals: value })).toBe(true);
          expect(at(value, { equals: `${value}x` })).toBe(false);
        },
      ),
    );
  });

  it("knows every operator it documents", () => {
    expect(RULE_NAMES.sort()).toEqual(
      [
        "array",
        "boolean",
        "contains",
        "empty",
        "equals",
        "greaterThan",
        "in",
        "integer",
        "ip",
        "ipv4",
        "ipv6",
        "lessThan",
        "max",
        "maxLength",
        "min",
        "minLength",
        "notContains",
        "notEmpty",
        "notIn",
        "notRegex",
        "number",
        "numeric",
        "regex",
        "required",
        "string",
        "uuid",
      ].sort(),
    );
  });
});

describe("each rule on the values catalogs hold", () => {
  /** Whether one rule passes on `value` at the path `s.v`. */
  const passes = (rule: string, arg: unknown, value: unknown) => rulesPass([{ path: "s.v", [rule]: arg }], { s: { v: value } });

  it.each<[string, unknown, unknown, boolean]>([
    ["equals", "", null, true],
    ["required", true, null, false],
    ["required", true, "", false],
    ["required", true, 0, true],
    ["required", false, null, true],
    ["number", true, " ", false],
    ["number", true, "12", true],
    ["number", true, "abc", false],
    ["number", true, 5, true],
    ["numeric", true, "12", true],
    ["numeric", true, "-1.25", true],
    ["numeric", true, "12.5", true],
    ["numeric", true, "1.", false],
    ["numeric", true, "-", false],
    ["integer", true, "123", true],
    ["integer", true, "1.5", false],
    ["boolean", true, true, true],
    ["boolean", true, "true", true],
    ["boolean", true, "false", true],
    ["boolean", true, "yes", false],
    ["ip", true, "10.0.0.1", true],
    ["ip", true, "fe80::1", true],
    ["ip", true, "abcd", false],
    ["ipv6", true, "fe80::1", true],
    ["ipv6", true, "abcd", false],
    ["ipv6", true, "10.0.0.1", false],
  ])("%s: %j on %j is %s", (rule, arg, value, expected) => {
    expect(passes(rule, arg, value)).toBe(expected);
  });

  it("answers false, not a failure, for a pattern RE2 does not take, and for a path through null", () => {
    expect(passes("regex", "(a", "a")).toBe(false);
    expect(passes("notRegex", "(a", "a")).toBe(true);
    expect(rulesPass([{ path: "s.v.w", required: true }], { s: { v: null } })).toBe(false);
  });

  it("refuses a rule that is no object, a path with no segment, a bad negated pattern; takes any argument elsewhere", () => {
    const refused = (rules: unknown, start: RegExp) =>
      expect(() => checkRules(rules, "SKU")).toThrow(
        expect.objectContaining({ kind: "bad-request", message: expect.stringMatching(start) }),
      );
    refused(["x"], /^SKU rule 0 must /);
    refused([{ path: "." }], /^SKU rule 0 needs/);
    refused([{ path: "s.v", notRegex: "(a" }], /^SKU rule 0: notR/);
    expect(() => checkRules([{ path: "s.v", equals: 5, in: [1, 2] }], "SKU")).not.toThrow();
  });
});
