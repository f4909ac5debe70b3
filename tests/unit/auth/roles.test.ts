import fc from "fast-check";
import { authorize, covers, grantPermits } from "../../../lib/auth/authorize";
import { DECISIONS } from "../../../lib/auth/decisions.generated";
import { defaultGrants, formatGrant, type Grant, narrowGrants, parseGrant, parseRoles, ROLES } from "../../../lib/auth/roles";
import { ROUTES } from "../../../lib/http/routes";
import { cedarPermits } from "../../../scripts/policyDecisions";

describe("AUTH_ROLES", () => {
  it("reads names, roles and sites in both forms", () => {
    const text = parseRoles("alice=operator@rack-1+rack 2, bob=viewer,group:netops=admin@*,alice=viewer");
    expect(text.of("alice", [], [])).toEqual([
      { role: "operator", sites: ["rack-1", "rack 2"] },
      { role: "viewer", sites: "*" },
    ]);
    expect(text.of("carol", ["netops"], [])).toEqual([{ role: "admin", sites: "*" }]);
    expect(text.of("bob", ["netops"], [])).toEqual([
      { role: "viewer", sites: "*" },
      { role: "admin", sites: "*" },
    ]);
    const json = parseRoles('{"a=b": ["operator@x"], "c": "viewer"}');
    expect(json.of("a=b", [], [])).toEqual([{ role: "operator", sites: ["x"] }]);
    expect(json.size).toBe(2);
  });

  it("gives a user it does not name (nor their groups) the fallback", () => {
    const fallback: Grant[] = [{ role: "admin", sites: "*" }];
    expect(parseRoles("").of("anyone", ["g"], fallback)).toEqual(fallback);
    expect(parseRoles("bob=viewer").of("anyone", [], [])).toEqual([]);
  });

  it.each([
    ["alice", /name=role/],
    ["=viewer", /name=role/],
    ["alice=root", /not viewer, operator or admin/],
    ["alice=viewer@", /not viewer/],
    ["alice=viewer@a+*", /not viewer/],
    ["alice=viewer@a,b", /name=role/],
    ["group:=viewer", /empty name/],
    ["{", /does not parse/],
    ["[1]", /name=role/],
    ['{"a": 1}', /must be strings/],
    ["{}x", /does not parse/],
  ])("refuses %s at start, saying why", (raw, why) => {
    expect(() => parseRoles(raw)).toThrow(why);
  });

  it("refuses a JSON that is no object", () => {
    expect(() => parseRoles("{}")).not.toThrow();
    expect(() => parseRoles('{"a": ["viewer", "nobody"]}')).toThrow(/nobody/);
  });

  it("reads back every grant it writes (fast-check)", () => {
    const site = fc.stringMatching(/^[\w .:-]{1,20}$/).filter((name) => name.trim() === name && name !== "*" && name !== "");
    const grant = fc.record({
      role: fc.constantFrom(...ROLES),
      sites: fc.oneof(fc.constant("*" as const), fc.uniqueArray(site, { minLength: 1, maxLength: 4 })),
    });
    fc.assert(fc.property(grant, (made) => expect(parseGrant(formatGrant(made))).toEqual(made)));
  });

  it("AUTH_DEFAULT_ROLE: admin on every site unless said, none for nobody", () => {
    expect(defaultGrants(undefined)).toEqual([{ role: "admin", sites: "*" }]);
    expect(defaultGrants(" ")).toEqual([{ role: "admin", sites: "*" }]);
    expect(defaultGrants("none")).toEqual([]);
    expect(defaultGrants("viewer@a")).toEqual([{ role: "viewer", sites: ["a"] }]);
    expect(() => defaultGrants("root")).toThrow(/AUTH_DEFAULT_ROLE/);
  });
});

describe("the decision table", () => {
  it("is Cedar's answer for every action, role and kind of grant (npm run generate writes it)", () => {
    const table: string[] = [];
    const cedar: string[] = [];
    for (const entry of ROUTES.filter((route) => DECISIONS[route.function] !== undefined)) {
      table.push(`${entry.function}: ${DECISIONS[entry.function]}`);
      const answers = ROLES.flatMap((role) => [true, false].map((every) => (cedarPermits(entry, role, every) ? "1" : "0")));
      cedar.push(`${entry.function}: ${answers.join("")}`);
    }
    expect(table).toEqual(cedar);
  });

  it("knows every action an operator may be asked about, and no other", () => {
    const asked = ROUTES.filter((route) => ["northbound", "tasks", "tasksList"].includes(route.auth)).map((route) => route.function);
    expect(Object.keys(DECISIONS).sort()).toEqual(asked.sort());
  });
});

describe("authorize", () => {
  const node = { function: "getNode", scope: "node" } as const;
  const site = { function: "getSite", scope: "site" } as const;
  const everywhere = { function: "listHooks", scope: "all" } as const;

  it("refuses an action nobody knows", () => {
    expect(grantPermits({ function: "nope", scope: "any" }, { role: "admin", sites: "*" })).toBe(false);
  });

  it("covers a site-less resource only from every site", () => {
    expect(covers({ role: "viewer", sites: ["a"] }, undefined)).toBe(false);
    expect(covers({ role: "viewer", sites: "*" }, undefined)).toBe(true);
  });

  it("narrows a machine's routes to the sites granted, knowing those of any grant", () => {
    const scope = authorize(
      [
        { role: "viewer", sites: ["a"] },
        { role: "viewer", sites: ["b"] },
      ],
      node,
      { identifier: "x" },
    );
    expect([scope?.acts("a"), scope?.acts("b"), scope?.acts("c"), scope?.acts(undefined)]).toEqual([true, true, false, false]);
    expect(authorize([{ role: "viewer", sites: "*" }], node, {})).toBeUndefined();
    const mixed = authorize(
      [
        { role: "operator", sites: ["a"] },
        { role: "viewer", sites: "*" },
      ],
      { function: "deleteNode", scope: "node" },
      {},
    );
    expect([mixed?.acts("a"), mixed?.acts("b"), mixed?.sees("b")]).toEqual([true, false, true]);
    expect(() => authorize([{ role: "viewer", sites: ["a"] }], { function: "deleteNode", scope: "node" }, {})).toThrow(/role/);
  });

  it("answers a site's route for a site not granted as for one that does not exist", () => {
    expect(authorize([{ role: "viewer", sites: ["a"] }], site, { id: "a" })).toBeUndefined();
    expect(() => authorize([{ role: "viewer", sites: ["a"] }], site, { id: "b" })).toThrow("Could not find site b");
    expect(() => authorize([{ role: "viewer", sites: ["a"] }], site, {})).toThrow("Could not find site ");
    expect(() => authorize([{ role: "viewer", sites: ["a"] }], { function: "deleteSite", scope: "site" }, { id: "a" })).toThrow(/role/);
  });

  it("keeps what spans sites for a grant on every site", () => {
    expect(() => authorize([{ role: "admin", sites: ["a"] }], everywhere, {})).toThrow(/role/);
    expect(authorize([{ role: "viewer", sites: "*" }], everywhere, {})).toBeUndefined();
    expect(() => authorize([], everywhere, {})).toThrow(/role/);
  });
});

describe("a grant narrowed to another's", () => {
  const site = fc.constantFrom("A", "B", "C");
  const grant: fc.Arbitrary<Grant> = fc.record({
    role: fc.constantFrom(...ROLES),
    sites: fc.oneof(fc.constant("*" as const), fc.uniqueArray(site, { minLength: 1, maxLength: 3 })),
  });
  const rank = (role: Grant["role"]) => ROLES.indexOf(role);
  const sitesOf = (grant: Grant) => (grant.sites === "*" ? ["A", "B", "C"] : grant.sites);

  it("keeps the lower role on the sites both name, and nothing where they share none", () => {
    expect(narrowGrants([{ role: "admin", sites: "*" }], [{ role: "viewer", sites: ["A"] }])).toEqual([{ role: "viewer", sites: ["A"] }]);
    expect(narrowGrants([{ role: "viewer", sites: "*" }], [{ role: "admin", sites: "*" }])).toEqual([{ role: "viewer", sites: "*" }]);
    expect(narrowGrants([{ role: "operator", sites: ["A", "B"] }], [{ role: "admin", sites: ["B", "C"] }])).toEqual([
      { role: "operator", sites: ["B"] },
    ]);
    expect(narrowGrants([{ role: "operator", sites: ["A"] }], [{ role: "admin", sites: ["B"] }])).toEqual([]);
    expect(narrowGrants([{ role: "operator", sites: ["A"] }], [])).toEqual([]);
  });

  it("never grants what either side does not (a property)", () => {
    fc.assert(
      fc.property(fc.array(grant, { maxLength: 3 }), fc.array(grant, { maxLength: 3 }), (wanted, held) => {
        for (const each of narrowGrants(wanted, held)) {
          for (const side of [wanted, held])
            expect(side.some((g) => rank(g.role) >= rank(each.role) && sitesOf(each).every((s) => sitesOf(g).includes(s)))).toBe(true);
          expect(sitesOf(each).length).toBeGreaterThan(0);
        }
      }),
    );
  });
});
