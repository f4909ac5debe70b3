import type { DataAccess } from "../../dataAccess";
import { PUSH } from "../../wire/relay";
import type { HandlerFile } from "./handlerFiles.generated";

/**
 * The WebSocket API's functions (issue 56): the connection a site's relay holds to hear of its jobs
 * at once. `$connect` checks the relay's credential and keeps the connection under its site,
 * `$disconnect` forgets it, `ping` keeps it (and the relay online) and answers `{"type":"pong"}`.
 * Deployed with STORE=dynamodb (a memory stage's containers share no connections); locally
 * `serverless offline` serves them on WEBSOCKET_PORT.
 */
export interface SocketFunction {
  function: string;
  /** The module exporting `handler`, from the repository root, without extension (a file that is not there fails the type check). */
  handler: HandlerFile;
  data: DataAccess;
  /** The route key: `$connect`, `$disconnect`, or a message's `action`. */
  route: string;
  /** The function's answer's body goes back on the connection (API Gateway's route response). */
  answers: boolean;
  summary: string;
}

export const SOCKET = [
  {
    function: "relayConnect",
    handler: "handlers/provisioning/relays/connect",
    data: { write: ["relayConnections", "relayCredentials", "authAttempts", "audit"] },
    route: "$connect",
    answers: false,
    summary: "A relay opens its push connection: its credential checked (Authorization: Bearer), the connection kept under its site",
  },
  {
    function: "relayDisconnect",
    handler: "handlers/provisioning/relays/disconnect",
    data: { write: ["relayConnections", "relayCredentials"] },
    route: "$disconnect",
    answers: false,
    summary: "A relay's push connection closed: forgotten",
  },
  {
    function: "relayPing",
    handler: "handlers/provisioning/relays/ping",
    data: { write: ["relayConnections", "relayCredentials"] },
    route: PUSH.pingRoute,
    answers: true,
    summary:
      "A relay's keep-alive on its push connection: the relay is online; answers pong (or reconnect, for a connection the service no longer knows)",
  },
] as const satisfies readonly SocketFunction[];
