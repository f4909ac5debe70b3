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
}

/** Each role includes those ranked below it. */
export const ROLE_RANK: Readonly<Record<Role, number>> = { viewer: 0, operator: 1, admin: 2 };

/** Where no credentials are asked for (the setting off): whoever asks may do anything, as before roles. */
export const OPEN_CALLER: Caller = { name: "anonymous", grants: [{ role: "admin", sites: "*" }] };
