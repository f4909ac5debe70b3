/**
 * A relay's push connection (issue 56): the WebSocket a relay holds to the service's WebSocket API,
 * kept so that the code that makes a job can tell the site's relays at once.
 */
export interface RelayConnection {
  /** API Gateway's connection id (what `POST @connections/{id}` names). */
  id: string;
  site: string;
  /** The relay credential it connected with. */
  relay: string;
  connectedAt: string;
  /** Gone by then in any case (API Gateway ends a connection after 2 hours): the store forgets it (DynamoDB's TTL). */
  expiresAt: string;
}

/** Where connections are kept: by id (a connection's close names only its id) and by site (a push names the site). */
export interface RelayConnectionStore {
  /** Keeps it (the same id again replaces it). */
  add(connection: RelayConnection): Promise<void>;
  get(id: string): Promise<RelayConnection | undefined>;
  /** Forgets it; nothing when it was not kept. */
  delete(id: string): Promise<void>;
  /** The ids of the site's connections not yet expired (one may have closed since: a push to it is answered "gone"). */
  idsOfSite(site: string, now: Date): Promise<string[]>;
}

/** Sends a message on a connection (API Gateway's `@connections` API): "gone" when the connection no longer exists. */
export interface RelayPusher {
  send(connectionId: string, message: string): Promise<"sent" | "gone">;
  /** Ends the connection (a revoked credential's); nothing for one already gone. */
  close(connectionId: string): Promise<void>;
}
