import type { Context } from "aws-lambda";
import { SOCKET } from "../../../lib/http/routes/socket";
import { runSocket, type SocketEvent } from "../../../lib/lambda/socketFunction";
import { disconnectRelay } from "../../../lib/provisioning/relays/push";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** `$disconnect` of the WebSocket API: the relay's connection forgotten. */
export const handler = (event: SocketEvent, context?: Context) =>
  runSocket(SOCKET[1], context, async () => {
    await disconnectRelay(await provisioningStores(), event.requestContext.connectionId, new Date());
    return { statusCode: 200 };
  });
