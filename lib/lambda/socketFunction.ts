import type { Context } from "aws-lambda";
import { isDomainError } from "../errors";
import { statusOf } from "../http/errorMapping";
import type { SocketFunction } from "../http/routes/socket";
import { logLine } from "../logger";
import { runBackground } from "./backgroundFunction";

/**
 * A WebSocket API event as API Gateway gives it to a route's function (`$connect` carries the
 * connection request's headers; the other routes the message's body).
 */
export interface SocketEvent {
  requestContext: { connectionId: string; routeKey?: string; identity?: { sourceIp?: string } };
  headers?: Record<string, string | undefined>;
  body?: string | null;
}

export interface SocketAnswer {
  statusCode: number;
  body?: string;
}

/**
 * Runs a WebSocket route's work as its function's invocation (its data access guarded locally, its
 * metrics line written). A domain error becomes its status (a `$connect` answered 401 refuses the
 * connection) and nothing else is said: API Gateway passes no body of a refused connect on.
 */
export async function runSocket(
  entry: Pick<SocketFunction, "function" | "data">,
  context: Context | undefined,
  work: () => Promise<SocketAnswer>,
): Promise<SocketAnswer> {
  return runBackground(entry, context, async () => {
    try {
      return await work();
    } catch (error) {
      if (!isDomainError(error)) throw error;
      logLine({ level: "warn", msg: `${entry.function} refused`, error: error.message });
      return { statusCode: statusOf(error, { authFailureStatus: 401 }) };
    }
  });
}
