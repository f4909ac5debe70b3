import { ConfigError } from "../errors";

/**
 * The roles (issue 55), each including the ones before it: `viewer` reads (never a secret),
 * `operator` also powers, runs workflows and OBM and the life cycle's actions, `admin` also keeps
 * the users' tokens, sites, relays, hooks, libraries and settings. Which endpoint needs which is
 * the policy's to say (lib/auth/policy.cedar), from the action each registry entry names.
 */
export const ROLES = ["viewer", "operator", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Every site, present and future. */
export const EVERY_SITE = "*";

/** A role on every site (`sites: "*"`), or on the sites named. */
export interface Grant {
  role: Role;
  sites: typeof EVERY_SITE | readonly string[];
}

/** A site's id as the sites' schema allows it (lib/http/provisioning/relays/schemas.ts), and `*`. */
const SITE = /^[\w .:-]{1,64}$/;
const GRANT = /^(viewer|operator|admin)(?:@(.+))?$/;

/** `operator`, `operator@*` (both: every site), `operator@rack-1+rack-2`. */
export function parseGrant(text: string): Grant | undefined {
  const match = GRANT.exec(text.trim());
  if (!match) return undefined;
  const role = match[1] as Role;
  if (match[2] === undefined || match[2].trim() === EVERY_SITE) return { role, sites: EVERY_SITE };
  const sites = match[2].split("+").map((site) => site.trim());
  if (sites.some((site) => !SITE.test(site) || site === EVERY_SITE)) return undefined;
  return { role, sites: [...new Set(sites)] };
}

/**
 * What `wanted` keeps within `held` (a token's grant within its owner's grants now): on each held
 * grant, the lower of the two roles on the sites both name; nothing where they share no site.
 */
export function narrowGrants(wanted: readonly Grant[], held: readonly Grant[]): Grant[] {
  const lower = (a: Role, b: Role): Role => (ROLES.indexOf(a) <= ROLES.indexOf(b) ? a : b);
  return wanted.flatMap((want) =>
    held.flatMap((have): Grant[] => {
      const role = lower(want.role, have.role);
      if (want.sites === EVERY_SITE) return [{ role, sites: have.sites }];
      const sites = have.sites === EVERY_SITE ? want.sites : want.sites.filter((site) => have.sites.includes(site));
      return sites.length === 0 ? [] : [{ role, sites }];
    }),
  );
}

export const formatGrant = (grant: Grant): string =>
  grant.sites === EVERY_SITE ? `${grant.role}@*` : `${grant.role}@${grant.sites.join("+")}`;

/**
 * Who holds which grants: user names (a Basic user's, a signed-in user's `sub` or e-mail) and
 * `group:<name>` (an identity provider's group). From AUTH_ROLES.
 */
export class RoleMap {
  constructor(private readonly grants: ReadonlyMap<string, readonly Grant[]>) {}

  get size(): number {
    return this.grants.size;
  }

  /** The grants of a user and of each group they are in; `fallback` for a user AUTH_ROLES does not name (nor any of their groups). */
  of(user: string, groups: readonly string[], fallback: readonly Grant[]): Grant[] {
    const named = [user, ...groups.map((group) => `group:${group}`)].filter((name) => this.grants.has(name));
    return named.length === 0 ? [...fallback] : named.flatMap((name) => this.grants.get(name) ?? []);
  }
}

/**
 * AUTH_ROLES: `alice=operator@rack-1+rack-2,bob=viewer,group:netops=admin` (a name may come more
 * than once), or JSON `{"alice": ["operator@rack-1", "viewer"]}` for names holding `,` or `=`.
 */
export function parseRoles(raw: string): RoleMap {
  const text = raw.trim();
  const pairs: [string, string][] = [];
  if (text.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ConfigError("AUTH_ROLES looks like JSON but does not parse");
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
      throw new ConfigError("AUTH_ROLES as JSON must be an object of names to grants");
    for (const [name, value] of Object.entries(parsed)) {
      const list: unknown[] = Array.isArray(value) ? value : [value];
      for (const grant of list) {
        if (typeof grant !== "string") throw new ConfigError(`AUTH_ROLES: the grants of "${name}" must be strings`);
        pairs.push([name, grant]);
      }
    }
  } else if (text !== "") {
    for (const entry of text.split(",")) {
      const equals = entry.indexOf("=");
      if (equals < 1) throw new ConfigError("AUTH_ROLES entries must look like name=role or name=role@site+site");
      pairs.push([entry.slice(0, equals).trim(), entry.slice(equals + 1)]);
    }
  }
  const grants = new Map<string, Grant[]>();
  for (const [name, text] of pairs) {
    if (name === "" || name === "group:") throw new ConfigError("AUTH_ROLES: an empty name");
    const grant = parseGrant(text);
    if (!grant)
      throw new ConfigError(
        `AUTH_ROLES: "${text.trim().slice(0, 80)}" of "${name}" is not viewer, operator or admin, with @site+site or @*`,
      );
    grants.set(name, [...(grants.get(name) ?? []), grant]);
  }
  return new RoleMap(grants);
}

/** AUTH_DEFAULT_ROLE: what a Basic user AUTH_ROLES does not name holds (`admin`, every site: the one operator of before roles), or `none`. */
export function defaultGrants(raw: string | undefined): Grant[] {
  const text = raw?.trim() || "admin";
  if (text === "none") return [];
  const grant = parseGrant(text);
  if (!grant)
    throw new ConfigError(`AUTH_DEFAULT_ROLE must be none, viewer, operator or admin, with @site+site or @* (got "${text.slice(0, 80)}")`);
  return [grant];
}

/** RackHD 2.0's role names (on-http's users API): ours by the same rank. */
export const RACKHD_ROLE_NAMES: Readonly<Record<Role, string>> = { viewer: "ReadOnly", operator: "Operator", admin: "Administrator" };

/**
 * A user as RackHD 2.0's `/users` answered one (`username`, `role`), with the grants it stands for:
 * `role` is the RackHD name of the highest role held (on any site; the grants say where), or null
 * for a user who holds none.
 */
export function rackhdUser(username: string, grants: readonly Grant[]): { username: string; role: string | null; grants: string[] } {
  const highest = grants.map((grant) => grant.role).sort((a, b) => ROLES.indexOf(b) - ROLES.indexOf(a))[0];
  return { username, role: highest ? RACKHD_ROLE_NAMES[highest] : null, grants: grants.map(formatGrant) };
}
