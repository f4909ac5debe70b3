import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { NotFoundError, ValidationError } from "../errors";
import { parseBearer } from "./basicAuth";
import { type Caller, ROLE_RANK } from "./caller";
import { EVERY_SITE, formatGrant, type Grant, narrowGrants, parseGrant } from "./roles";

/**
 * API tokens for automation (issue 55): made by a user for themselves (or by an admin of every
 * site), with a name, a grant no wider than its maker's, and an expiry; shown once as
 * `rhdt_<id>_<secret>` and kept as the secret's SHA-256 (a 192-bit random secret needs no slow
 * hash: no guess list reaches it); listed with their last use; revoked at once (the next request
 * with it is a 401).
 */
export interface ApiToken {
  id: string;
  name: string;
  /** Whose: the user who made it (a token made with a token is its maker's). */
  owner: string;
  /** Its grant, as AUTH_ROLES writes one (`operator@rack-1+rack-2`). */
  grant: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt?: string;
  /** SHA-256 of the secret, base64url. Never answered. */
  secretHash: string;
}

/** A token as it is answered: never its hash. */
export type ApiTokenView = Omit<ApiToken, "secretHash">;

/**
 * A provider's user's or client's last sign-in seen (a request with its JWT): the groups its token
 * listed then. Its API tokens are granted by these (within PROVIDER_SIGN_IN_DAYS of `at`), since
 * the service cannot ask the provider about a user who is not signing in.
 */
export interface ProviderSignIn {
  /** `oidc:<name>` or `client:<id>` (lib/auth/caller.ts). */
  name: string;
  groups: readonly string[];
  at: string;
}

export interface ApiTokenStore {
  create(token: ApiToken): Promise<void>;
  get(id: string): Promise<ApiToken | undefined>;
  list(): Promise<ApiToken[]>;
  /** Records a use (the last one kept, to the minute). */
  update(id: string, lastUsedAt: string): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** Keeps a provider's caller's sign-in (the newest replaces the last), until PROVIDER_SIGN_IN_DAYS after it. */
  recordSignIn(signIn: ProviderSignIn): Promise<void>;
  lastSignIn(name: string): Promise<ProviderSignIn | undefined>;
}

export const TOKEN_PREFIX = "rhdt_";
const TOKEN = /^rhdt_([A-Za-z0-9_-]{16})_([A-Za-z0-9_-]{32})$/;

export { MAX_TOKEN_DAYS } from "./tokenLimits";
/** How often a token's last use is written (a busy automation would otherwise write on every request). */
export const LAST_USE_RESOLUTION_MS = 60_000;
/**
 * How long a provider's user's API tokens keep working after their last sign-in: one removed from
 * the provider (or from its groups) signs in no more, so their tokens end within this. A user who
 * signs in at least once a week keeps their automation working.
 */
export const PROVIDER_SIGN_IN_DAYS = 7;
/** The most tokens a deployment keeps (each is a read of its own at sign-in; the list is one query). */
export const MAX_TOKENS = 1000;

let storeOf: (() => ApiTokenStore) | undefined;

/** The composition root names the deployment's token store (lib/store/compositionRoot.ts). */
export function useApiTokenStore(factory: () => ApiTokenStore): void {
  storeOf = factory;
}

/** The token store: a function that never loaded the composition root fails here, by name. */
export function apiTokenStore(): ApiTokenStore {
  if (!storeOf)
    throw new Error("No API token store: lib/store/compositionRoot.ts gives it (useApiTokenStore) to every handler that loads it");
  return storeOf();
}

const digest = (secret: string): string => createHash("sha256").update(secret).digest("base64url");

export const viewOf = ({ secretHash: _hash, ...view }: ApiToken): ApiTokenView => view;

/** Whether `wanted` is within `held`: a role no higher, on sites it holds. */
const within = (wanted: Grant, held: Grant): boolean =>
  ROLE_RANK[wanted.role] <= ROLE_RANK[held.role] &&
  (held.sites === EVERY_SITE || (wanted.sites !== EVERY_SITE && wanted.sites.every((site) => held.sites.includes(site))));

export const isAdminEverywhere = (caller: Caller): boolean =>
  caller.grants.some((grant) => grant.role === "admin" && grant.sites === EVERY_SITE);

export interface TokenRequest {
  name: string;
  /** viewer, operator or admin, with @site+site (none: every site). */
  role: string;
  expiresInDays: number;
}

/** Makes a token for the caller: the secret is in the answer and nowhere else. */
export async function issueToken(
  store: ApiTokenStore,
  caller: Caller,
  request: TokenRequest,
  now: Date,
): Promise<{ token: string; record: ApiTokenView }> {
  const grant = parseGrant(request.role);
  if (!grant) throw new ValidationError("role must be viewer, operator or admin, with @site+site or @*");
  if (!caller.grants.some((held) => within(grant, held)))
    throw new ValidationError(`A token's grant must be within its maker's: ${formatGrant(grant)} is not within what you hold`);
  if ((await store.list()).length >= MAX_TOKENS)
    throw new ValidationError(`This deployment keeps ${MAX_TOKENS} tokens at most: revoke some first`);
  return mint(store, caller.name, request.name, [grant], new Date(now.getTime() + request.expiresInDays * 86_400_000), now);
}

/** How long RackHD's `POST /login` token lives (on-http's authTokenExpireIn: 24 hours). */
export const LOGIN_TOKEN_HOURS = 24;

/**
 * RackHD's `POST /login` (issue 55): a token named `login` holding the signed-in user's grants,
 * for LOGIN_TOKEN_HOURS. Listed and revoked as any token; not counted against MAX_TOKENS (each
 * goes with its day: DynamoDB's time-to-live takes it away, the memory store's bound holds).
 */
export async function loginToken(store: ApiTokenStore, caller: Caller, now: Date): Promise<string> {
  return (await mint(store, caller.name, "login", caller.grants, new Date(now.getTime() + LOGIN_TOKEN_HOURS * 3_600_000), now)).token;
}

/** The name of a console session's token: listed and revoked as any token of its owner's. */
export const CONSOLE_SESSION = "console session";

/**
 * The console's session (the HttpOnly cookie's value): a token of the signed-in caller's, holding
 * the grants they held at sign-in (narrowed at each use as any token is), until the provider's
 * token would have expired. Opaque: the provider's token never reaches the browser, and signing
 * out (endToken) ends the session everywhere at once.
 */
export async function consoleSessionToken(store: ApiTokenStore, caller: Caller, expires: Date, now: Date): Promise<string> {
  return (await mint(store, caller.name, CONSOLE_SESSION, caller.grants, expires, now)).token;
}

/** Ends the token presented (a console session signing out): nothing for a token that is malformed, unknown or wrong. */
export async function endToken(store: ApiTokenStore, presented: string): Promise<boolean> {
  const match = TOKEN.exec(presented);
  const token = match ? await store.get(match[1]) : undefined;
  if (!match || !token || !sameSecret(match[2], token.secretHash)) return false;
  return store.delete(token.id);
}

const sameSecret = (secret: string, secretHash: string): boolean => {
  const given = Buffer.from(digest(secret));
  const kept = Buffer.from(secretHash);
  return given.length === kept.length && timingSafeEqual(given, kept);
};

async function mint(
  store: ApiTokenStore,
  owner: string,
  name: string,
  grants: readonly Grant[],
  expires: Date,
  now: Date,
): Promise<{ token: string; record: ApiTokenView }> {
  const id = randomBytes(12).toString("base64url");
  const secret = randomBytes(24).toString("base64url");
  const record: ApiToken = {
    id,
    name,
    owner,
    // Several grants (a login's) as AUTH_ROLES lists them.
    grant: grants.map(formatGrant).join(","),
    createdAt: now.toISOString(),
    // Whole seconds: the table keeps it as its time-to-live (epoch seconds).
    expiresAt: new Date(Math.ceil(expires.getTime() / 1000) * 1000).toISOString(),
    secretHash: digest(secret),
  };
  await store.create(record);
  return { token: `${TOKEN_PREFIX}${id}_${secret}`, record: viewOf(record) };
}

/** The caller's tokens; every token for an admin of every site. */
export async function listTokens(store: ApiTokenStore, caller: Caller): Promise<ApiTokenView[]> {
  const all = await store.list();
  const mine = isAdminEverywhere(caller) ? all : all.filter((token) => token.owner === caller.name);
  return mine.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)).map(viewOf);
}

/** Revokes a token of the caller's (any, for an admin of every site); another's is as absent as one that never was. */
export async function revokeToken(store: ApiTokenStore, caller: Caller, id: string): Promise<void> {
  const token = /^[A-Za-z0-9_-]{16}$/.test(id) ? await store.get(id) : undefined;
  if (!token || (token.owner !== caller.name && !isAdminEverywhere(caller)) || !(await store.delete(id)))
    throw new NotFoundError(`Could not find token ${id.slice(0, 64)}`);
}

/** A presented token's id (the part before its secret), to count and record it by: never the secret. */
export const tokenIdOf = (presented: string): string => presented.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + 16);

/** Whether the Authorization header carries an API token (`Bearer rhdt_…`), not a relay's or a signed-in user's. */
export const bearerToken = (header: string | undefined): string | undefined => {
  const token = parseBearer(header);
  return token?.startsWith(TOKEN_PREFIX) ? token : undefined;
};

/**
 * The grants a token's owner holds now (a Basic user still listed, by AUTH_ROLES as it is now; a
 * provider's caller by its last sign-in), none for an owner who is gone.
 */
export type OwnerGrants = (owner: string) => Promise<readonly Grant[]>;

/**
 * The token's caller, or undefined for a token that is malformed, unknown, wrong, expired or revoked,
 * or whose owner holds nothing now. Its grant is what it was made with, narrowed at each use to what
 * its owner holds now: a demoted owner's token is demoted with them, a removed owner's ends.
 */
export async function authenticateToken(
  store: ApiTokenStore,
  presented: string,
  now: Date,
  ownerGrants: OwnerGrants,
): Promise<Caller | undefined> {
  const match = TOKEN.exec(presented);
  if (!match) return undefined;
  const token = await store.get(match[1]);
  if (!token) return undefined;
  if (!sameSecret(match[2], token.secretHash)) return undefined;
  if (Date.parse(token.expiresAt) <= now.getTime()) return undefined;
  const made = token.grant.split(",").flatMap((text) => parseGrant(text) ?? []);
  const grants = narrowGrants(made, await ownerGrants(token.owner));
  if (grants.length === 0) return undefined;
  if (!token.lastUsedAt || now.getTime() - Date.parse(token.lastUsedAt) >= LAST_USE_RESOLUTION_MS)
    await store.update(token.id, now.toISOString());
  return { name: token.owner, token: token.id, grants };
}

/** The groups a provider's caller was last seen with, if it signed in within PROVIDER_SIGN_IN_DAYS. */
export async function recentSignIn(store: ApiTokenStore, name: string, now: Date): Promise<readonly string[] | undefined> {
  const seen = await store.lastSignIn(name);
  return seen && now.getTime() - Date.parse(seen.at) < PROVIDER_SIGN_IN_DAYS * 86_400_000 ? seen.groups : undefined;
}

/** What this container last wrote of each provider caller's sign-in: a busy client writes once a LAST_USE_RESOLUTION_MS, or when its groups change. */
const written = new Map<string, { groups: string; at: number }>();
const MAX_WRITTEN = 10_000;

/** Records a provider's caller's sign-in (its groups now), at most once a LAST_USE_RESOLUTION_MS unless its groups changed. */
export async function noteSignIn(store: ApiTokenStore, caller: Caller, now: Date): Promise<void> {
  const groups = [...(caller.groups ?? [])].sort();
  const key = JSON.stringify(groups);
  const last = written.get(caller.name);
  if (last && last.groups === key && now.getTime() - last.at < LAST_USE_RESOLUTION_MS) return;
  await store.recordSignIn({ name: caller.name, groups, at: now.toISOString() });
  if (written.size >= MAX_WRITTEN) written.clear();
  written.set(caller.name, { groups: key, at: now.getTime() });
}
