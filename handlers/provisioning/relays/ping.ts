import type { Context } from "aws-lambda";
import { SOCKET } from "../../../lib/http/routes/socket";
import { runSocket, type SocketEvent } from "../../../lib/lambda/socketFunction";
import { pingRelay } from "../../../lib/provisioning/relays/push";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { PONG_MESSAGE, RECONNECT_MESSAGE } from "../../../lib/wire/relay";

/** The `ping` route of the WebSocket API: the relay is online; its answer goes back on the connection. */
export const handler = (event: SocketEvent, context?: Context) =>
  runSocket(SOCKET[2], context, async () => {
    const known = await pingRelay(await provisioningStores(), event.requestContext.connectionId, new Date());
    return { statusCode: 200, body: known ? PONG_MESSAGE : RECONNECT_MESSAGE };
  });
