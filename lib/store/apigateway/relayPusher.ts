import { ApiGatewayManagementApiClient, DeleteConnectionCommand, PostToConnectionCommand } from "@aws-sdk/client-apigatewaymanagementapi";
import type { RelayPusher } from "../../provisioning/relays/relayConnection";
import { processSingleton } from "../processSingleton";

/**
 * The push's adapter (issue 56): API Gateway's `@connections` API of the WebSocket API relays
 * connect to, at the same host and stage as RELAY_PUSH_URL (wss:// → https://; serverless offline's
 * ws:// → http://, whose `@connections` route checks no signature: the SDK is given placeholder keys
 * there when the environment has none). Bounded: a push waits at most a second and a half for API
 * Gateway; one that fails is left to the relay's slow poll.
 */
const isGone = (error: unknown): boolean =>
  (error as Error).name === "GoneException" || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 410;

export function relayPusher(pushUrl: string): RelayPusher {
  return processSingleton(`relayPusher.${pushUrl}`, () => {
    const endpoint = pushUrl.replace(/^ws/, "http");
    const local = endpoint.startsWith("http:");
    const client = new ApiGatewayManagementApiClient({
      endpoint,
      region: process.env.AWS_REGION ?? "us-east-1",
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 500, requestTimeout: 1_500 },
      ...(local && !process.env.AWS_ACCESS_KEY_ID && { credentials: { accessKeyId: "local", secretAccessKey: "local" } }),
    });
    return {
      async send(connectionId: string, message: string): Promise<"sent" | "gone"> {
        try {
          await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new TextEncoder().encode(message) }));
          return "sent";
        } catch (error) {
          if (isGone(error)) return "gone";
          throw error;
        }
      },
      async close(connectionId: string): Promise<void> {
        try {
          await client.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
        } catch (error) {
          if (!isGone(error)) throw error;
        }
      },
    };
  });
}
