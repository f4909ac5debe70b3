import { covers } from "../auth/authorize";
import { type Caller, OPEN_CALLER } from "../auth/caller";
import type { Actor } from "../provisioning/lifecycle/actionService";
import type { HttpEvent } from "./event";

/**
 * Who a request is from, once its credentials are checked: the Basic user's name, or
 * `anonymous` where the route asks for none. What keys per caller (an Idempotency-Key's scope,
 * issue 35 §12) use this, never the credentials themselves: a hash of an Authorization header
 * stored or logged is a password's hash anyone may try guesses against.
 */
const principals = new WeakMap<object, string>();

export const ANONYMOUS = "anonymous";

/** Records the user whose credentials the request carried (the Basic auth middleware, after checking them). */
export const setPrincipal = (event: HttpEvent, user: string): void => void principals.set(event, user);

export const principalOf = (event: HttpEvent): string => principals.get(event) ?? ANONYMOUS;

const callers = new WeakMap<object, Caller>();

/** Records the request's caller (the auth middleware, after checking its credentials and the policy). */
export const setCaller = (event: HttpEvent, caller: Caller): void => {
  callers.set(event, caller);
  setPrincipal(event, caller.name);
};

/** The request's caller if its credentials were checked (none asked for, or refused: undefined). */
export const verifiedCallerOf = (event: HttpEvent): Caller | undefined => callers.get(event);

/** The request's caller: where no credentials were asked for, one who may do anything (as before roles). */
export const callerOf = (event: HttpEvent): Caller => callers.get(event) ?? OPEN_CALLER;

const claimed = new WeakMap<object, string>();

/** The name a sign-in's form gave (RackHD's POST /login), whatever its answer: the audit trail's actor when it was not let in. */
export const setClaimedName = (event: HttpEvent, name: string): void => void claimed.set(event, name.slice(0, 64));

export const claimedNameOf = (event: HttpEvent): string | undefined => claimed.get(event);

/** The request's caller as the life cycle's actions see them: their name, their groups, the sites they administer. */
export const actorOf = (event: HttpEvent): Actor => {
  const caller = callerOf(event);
  return {
    name: caller.name,
    memberOf: (caller.groups ?? []).map((group) => `group:${group}`),
    administers: (site) => caller.grants.some((grant) => grant.role === "admin" && covers(grant, site)),
  };
};
