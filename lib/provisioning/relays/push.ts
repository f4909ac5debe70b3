import { JOBS_MESSAGE } from "../../wire/relay";
import type { StoresOf } from "../ports";
import type { RelayJob, RelayJobStore } from "./job";
import type { RelayConnection, RelayPusher } from "./relayConnection";
import { authenticateRelay } from "./siteService";

/**
 * The push (issue 56): a relay's WebSocket connection is kept by site, and making a job tells the
 * site's connected relays "there is work" at once. The message carries no job: the relay leases as
 * when it polls, so a push lost, doubled or sent to a relay that just stopped changes nothing but
 * how soon the job is taken.
 */

/** API Gateway ends a connection after 2 hours: its record is forgotten a little after that in any case. */
export const CONNECTION_LIFE_MS = 2 * 3600_000 + 5 * 60_000;

/** A relay's connection request: its credential (401 without a good one), kept under the connection's id. */
export async function connectRelay(
  stores: StoresOf<"relayConnections" | "relayCredentials">,
  request: { connectionId: string; authorization: string | undefined; version: string | undefined },
  now: Date,
): Promise<RelayConnection> {
  const relay = await authenticateRelay(stores, request.authorization, request.version, now);
  const connection: RelayConnection = {
    id: request.connectionId,
    site: relay.site,
    relay: relay.id,
    connectedAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + CONNECTION_LIFE_MS).toISOString(),
  };
  await stores.relayConnections.add(connection);
  await heard(stores, relay.id, now);
  return connection;
}

/** The credential heard from over its connection: online while it pings (site.ts heardLately). */
const heard = (stores: StoresOf<"relayCredentials">, relay: string, now: Date) =>
  stores.relayCredentials.update(relay, (current) => ({ ...current, lastSeenAt: now.toISOString(), pushedAt: now.toISOString() }));

/**
 * A relay's ping: its credential heard from. False when the service no longer knows the connection
 * or its credential (revoked): the relay is told to connect again, which a revoked one cannot.
 */
export async function pingRelay(
  stores: StoresOf<"relayConnections" | "relayCredentials">,
  connectionId: string,
  now: Date,
): Promise<boolean> {
  const connection = await stores.relayConnections.get(connectionId);
  if (!connection) return false;
  if (await heard(stores, connection.relay, now)) return true;
  await stores.relayConnections.delete(connectionId);
  return false;
}

/**
 * A connection closed: forgotten, and its relay no longer online by it unless it holds another (a
 * relay renewing its connection opens the new one before it closes the old).
 */
export async function disconnectRelay(
  stores: StoresOf<"relayConnections" | "relayCredentials">,
  connectionId: string,
  now: Date,
): Promise<void> {
  const connection = await stores.relayConnections.get(connectionId);
  if (!connection) return;
  await stores.relayConnections.delete(connectionId);
  const others = await Promise.all(
    (await stores.relayConnections.idsOfSite(connection.site, now)).map((id) => stores.relayConnections.get(id)),
  );
  if (others.some((other) => other?.relay === connection.relay)) return;
  await stores.relayCredentials.update(connection.relay, ({ pushedAt: _closed, ...current }) => current);
}

/**
 * Does `act` on each of the site's connections at once, counting those it says it reached (1).
 * Never fails: a failure, the list's or a connection's, goes to `onError` (the list's with no id).
 */
async function eachConnection(
  stores: StoresOf<"relayConnections">,
  site: string,
  now: Date,
  onError: (connectionId: string, error: Error) => void,
  act: (id: string) => Promise<0 | 1>,
): Promise<number> {
  let ids: string[];
  try {
    ids = await stores.relayConnections.idsOfSite(site, now);
  } catch (error) {
    onError("", error as Error);
    return 0;
  }
  const reached = await Promise.all(
    ids.map(async (id) => {
      try {
        return await act(id);
      } catch (error) {
        onError(id, error as Error);
        return 0;
      }
    }),
  );
  return reached.reduce<number>((sum, one) => sum + one, 0);
}

/**
 * Ends a relay credential's push connections (its revocation): each closed at API Gateway and
 * forgotten, so a revoked relay hears its site's pushes no more, not even until its next ping.
 * Never fails: a connection that cannot be closed now is refused at its next ping.
 */
export function closeRelayConnections(
  stores: StoresOf<"relayConnections">,
  pusher: RelayPusher,
  site: string,
  relay: string,
  now: Date,
  onError: (connectionId: string, error: Error) => void,
): Promise<number> {
  return eachConnection(stores, site, now, onError, async (id) => {
    if ((await stores.relayConnections.get(id))?.relay !== relay) return 0;
    await pusher.close(id);
    await stores.relayConnections.delete(id);
    return 1;
  });
}

/**
 * Tells the site's connected relays there is work: one message per connection, at once; a gone
 * connection is forgotten. Never fails: a relay that hears nothing finds the job by its slow poll.
 */
export function tellRelays(
  stores: StoresOf<"relayConnections">,
  pusher: RelayPusher,
  site: string,
  now: Date,
  onError: (connectionId: string, error: Error) => void,
): Promise<number> {
  return eachConnection(stores, site, now, onError, async (id) => {
    if ((await pusher.send(id, JOBS_MESSAGE)) === "sent") return 1;
    await stores.relayConnections.delete(id);
    return 0;
  });
}

/**
 * The relay jobs' store telling the job's site at each job made: every way a job is made (an
 * operator's power action, a workflow's OBM task, a poller, identify) pushes, none can forget to.
 * The push is awaited (a Lambda function's work after its answer may never run) and bounded.
 */
export function pushingJobs(relayJobs: RelayJobStore, tell: (site: string) => Promise<unknown>): RelayJobStore {
  return {
    create: async (job: RelayJob) => {
      const made = await relayJobs.create(job);
      await tell(made.site);
      return made;
    },
    get: (id) => relayJobs.get(id),
    list: () => relayJobs.list(),
    update: (id, change) => relayJobs.update(id, change),
    delete: (id) => relayJobs.delete(id),
    openForSite: (site) => relayJobs.openForSite(site),
  };
}
