import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from "../../errors";
import { newObjectId } from "../ids";
import type { ProvisioningStores, StoresOf } from "../ports";
import { fitsKey } from "../recordSize";
import {
  heardLately,
  newRelayToken,
  parseRelayToken,
  type RelayCredential,
  type RelayCredentialView,
  type Site,
  secretMatches,
  viewCredential,
} from "./site";

const NAME = /^[\w .:-]{1,64}$/;

function checkName(name: unknown, what: string): string {
  if (typeof name !== "string" || !NAME.test(name)) {
    throw new ValidationError(`${what} name must be 1 to 64 letters, digits, spaces, '.', ':', '_' or '-'`);
  }
  return name;
}

export async function createSite(stores: StoresOf<"sites">, body: { name?: unknown }, now: Date): Promise<Site> {
  const name = checkName(body.name, "A site's");
  if ((await stores.sites.list()).some((site) => site.name === name)) throw new ConflictError(`A site named ${name} exists`);
  const stamp = now.toISOString();
  return stores.sites.create({ id: newObjectId(now), name, createdAt: stamp, updatedAt: stamp });
}

export const listSites = (stores: StoresOf<"sites">): Promise<Site[]> => stores.sites.list();

export async function getSite(stores: StoresOf<"sites">, id: string): Promise<Site> {
  const site = fitsKey(id) ? await stores.sites.get(id) : undefined;
  if (!site) throw new NotFoundError(`Could not find site ${id.slice(0, 64)}`);
  return site;
}

/** Refused while a node belongs to it or a relay credential names it: they would point nowhere. */
export async function deleteSite(stores: StoresOf<"nodes" | "relayCredentials" | "sites">, id: string): Promise<Site> {
  const site = await getSite(stores, id);
  if ((await stores.relayCredentials.list()).some((credential) => credential.site === id)) {
    throw new ConflictError(`Site ${id} still has relay credentials: delete them first`);
  }
  if ((await stores.nodes.list()).some((node) => node.site === id)) throw new ConflictError(`Nodes still belong to site ${id}`);
  await stores.sites.delete(id);
  return site;
}

/** A new credential for a relay of the site: the token is in this answer and nowhere else, ever. */
export async function createRelayCredential(
  stores: StoresOf<"relayCredentials" | "sites">,
  siteId: string,
  body: { name?: unknown },
  now: Date,
): Promise<RelayCredentialView & { token: string }> {
  const site = await getSite(stores, siteId);
  const name = body.name === undefined ? "relay" : checkName(body.name, "A relay's");
  const id = newObjectId(now);
  const { token, secretSha256 } = newRelayToken(id);
  const credential = await stores.relayCredentials.create({ id, site: site.id, name, secretSha256, createdAt: now.toISOString() });
  return { ...viewCredential(credential, now), token };
}

export async function listRelayCredentials(
  stores: StoresOf<"relayCredentials" | "sites">,
  siteId: string,
  now: Date,
): Promise<RelayCredentialView[]> {
  await getSite(stores, siteId);
  return (await stores.relayCredentials.list()).filter((credential) => credential.site === siteId).map((c) => viewCredential(c, now));
}

/** Revokes: the relay holding it is refused from its next request on. */
export async function deleteRelayCredential(
  stores: StoresOf<"relayCredentials">,
  siteId: string,
  id: string,
  now: Date,
): Promise<RelayCredentialView> {
  const credential = fitsKey(id) ? await stores.relayCredentials.get(id) : undefined;
  if (!credential || credential.site !== siteId)
    throw new NotFoundError(`Could not find relay credential ${id.slice(0, 64)} of site ${siteId.slice(0, 64)}`);
  await stores.relayCredentials.delete(id);
  return viewCredential(credential, now);
}

/** How often a relay's last-seen time is written (each poll would be a write). */
const SEEN_EVERY_MS = 30_000;

/**
 * The credential a relay's `Authorization: Bearer <token>` names, when its secret is right; 401
 * otherwise, saying no more than that. Notes when the relay was last seen, now and then.
 */
export async function authenticateRelay(
  stores: StoresOf<"relayCredentials">,
  authorization: string | undefined,
  relayVersion: string | undefined,
  now: Date,
): Promise<RelayCredential> {
  const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
  const parsed = token ? parseRelayToken(token) : undefined;
  const credential = parsed ? await stores.relayCredentials.get(parsed.credentialId) : undefined;
  if (!parsed || !credential || !secretMatches(parsed.secret, credential.secretSha256)) {
    throw new UnauthorizedError("A relay credential is required: Authorization: Bearer <token>");
  }
  const seen = credential.lastSeenAt ? Date.parse(credential.lastSeenAt) : 0;
  if (now.getTime() - seen < SEEN_EVERY_MS && credential.relayVersion === relayVersion) return credential;
  const version = relayVersion?.slice(0, 64);
  return (
    (await stores.relayCredentials.update(credential.id, (current) => ({
      ...current,
      lastSeenAt: now.toISOString(),
      ...(version && { relayVersion: version }),
    }))) ?? credential
  );
}

/**
 * Marks each relay not heard from lately (site.ts heardLately) as lost, once (its `relay.lost` event);
 * answers how many. The scheduled function runs it every minute; a relay heard from again is
 * connected again (`relay.connected`, when its credential's last sighting is written).
 */
export async function markQuietRelays(stores: Pick<ProvisioningStores, "relayCredentials">, now: Date): Promise<number> {
  const quiet = (await stores.relayCredentials.list()).filter(
    (credential) =>
      credential.lastSeenAt !== undefined &&
      !heardLately(credential, now) &&
      !(credential.lostAt !== undefined && credential.lostAt >= credential.lastSeenAt),
  );
  const stamp = now.toISOString();
  for (const credential of quiet) {
    await stores.relayCredentials.update(credential.id, (current) =>
      current.lastSeenAt === credential.lastSeenAt && current.lostAt === credential.lostAt ? { ...current, lostAt: stamp } : current,
    );
  }
  return quiet.length;
}
