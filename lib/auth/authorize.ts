import { ForbiddenError, NotFoundError } from "../errors";
import type { NodeSites } from "../provisioning/relays/siteScope";
import { DECISIONS } from "./decisions.generated";
import { EVERY_SITE, type Grant, ROLES } from "./roles";

/**
 * Whose site an action's resource is of, for a grant held on named sites: `node` the machines it
 * reaches (a node of a site the caller may not see is as absent as one that does not exist), `site`
 * the site its path's `{id}` names, `any` no site's (a library: a grant on any site will do), `all`
 * every site's (lists across sites, settings: a grant on every site).
 */
export type SiteScope = "node" | "site" | "any" | "all";

/** What the policy is asked about: an action (a registry entry's function) and which site its resource is of. */
export interface Action {
  function: string;
  scope: SiteScope;
}

/** Whether a grant's sites cover `site` (a resource of no site: only a grant on every site). */
export const covers = (grant: Grant, site: string | undefined): boolean =>
  grant.sites === EVERY_SITE || (site !== undefined && grant.sites.includes(site));

/**
 * The policy's answer (lib/auth/decisions.generated.ts, Cedar's, from lib/auth/policy.cedar) for
 * one grant asking for `action`, whose resource is of `site` where the action's scope is a site's.
 * An action the table does not know is nobody's (fails closed).
 */
export function grantPermits(action: Action, grant: Grant, site?: string): boolean {
  const answers = DECISIONS[action.function];
  if (answers === undefined) return false;
  const siteBound = action.scope === "node" || action.scope === "site";
  if (siteBound && !covers(grant, site)) return false;
  return answers[ROLES.indexOf(grant.role) * 2 + (grant.sites === EVERY_SITE ? 0 : 1)] === "1";
}

/** The answer the caller gets for a site it may not see: a site that does not exist (lib/provisioning/relays/siteService.ts's words). */
const noSuchSite = (id: string) => new NotFoundError(`Could not find site ${id.slice(0, 64)}`);

const FORBIDDEN = "Your role does not allow this";

/**
 * Decides a request from its caller's grants, before its handler runs: 403 for an action no grant
 * permits; for a site's action, a site the caller holds no grant on is a 404 as for a site that
 * does not exist; for a machine's, the machines it may act on and know of (undefined when every
 * one: the node store is then not narrowed), which the node store applies (lib/provisioning/relays/siteScope.ts scopedNodes), so that another site's
 * machine is as absent as one that does not exist.
 */
export function authorize(grants: readonly Grant[], action: Action, params: Record<string, string | undefined>): NodeSites | undefined {
  switch (action.scope) {
    case "site": {
      const site = params.id ?? "";
      if (grants.some((grant) => grantPermits(action, grant, site))) return undefined;
      if (grants.some((grant) => covers(grant, site))) throw new ForbiddenError(FORBIDDEN);
      throw noSuchSite(site);
    }
    case "node": {
      if (grants.some((grant) => grant.sites === EVERY_SITE && grantPermits(action, grant))) return undefined;
      const acting = grants.filter((grant) => grant.sites !== EVERY_SITE && grantPermits(action, grant, grant.sites[0]));
      if (acting.length === 0) throw new ForbiddenError(FORBIDDEN);
      return {
        acts: (site) => acting.some((grant) => covers(grant, site)),
        sees: (site) => grants.some((grant) => covers(grant, site)),
      };
    }
    default:
      if (!grants.some((grant) => grantPermits(action, grant))) throw new ForbiddenError(FORBIDDEN);
      return undefined;
  }
}
