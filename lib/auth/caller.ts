import type { Grant, Role } from "./roles";

/**
 * Who a request is from once its credentials are checked (issue 55): a user's name (a Basic user,
 * or a token's owner), the token it came with if any, and the grants it holds for this request (a
 * token holds its own grant, never its owner's others).
 */
export interface Caller {
  name: string;
  token?: string;
  grants: readonly Grant[];
  /** A provider's caller's groups, as its token listed them (what a later use of its API tokens is granted by). */
  groups?: readonly string[];
}

/**
 * Where a name comes from, so that three kinds of caller never share one: a Basic user's name is
 * bare (it cannot hold a colon), a provider's user is `oidc:<name claim>`, a provider's client (the
 * client credentials grant) is `client:<client id>`, and a provider's group `group:<name>`. These
 * are the names AUTH_ROLES gives grants to, tokens are owned by and the audit trail records.
 */
export const PROVIDER_USER = "oidc:";
export const PROVIDER_CLIENT = "client:";

/** Whether the name is a provider's user's or client's (its grants are read from its last sign-in), not a Basic user's. */
export const isProviderName = (name: string): boolean => name.startsWith(PROVIDER_USER) || name.startsWith(PROVIDER_CLIENT);

/** Each role includes those ranked below it. */
export const ROLE_RANK: Readonly<Record<Role, number>> = { viewer: 0, operator: 1, admin: 2 };

/** Where no credentials are asked for (the setting off): whoever asks may do anything, as before roles. */
export const OPEN_CALLER: Caller = { name: "anonymous", grants: [{ role: "admin", sites: "*" }] };
