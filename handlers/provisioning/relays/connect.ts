import type { Context } from "aws-lambda";
import { header } from "../../../lib/http/event";
import { SOCKET } from "../../../lib/http/routes/socket";
import { runSocket, type SocketEvent } from "../../../lib/lambda/socketFunction";
import { connectRelay } from "../../../lib/provisioning/relays/push";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { PUSH } from "../../../lib/wire/relay";

/** `$connect` of the WebSocket API (SOCKET in lib/http/routes/socket.ts): a relay's push connection, refused (401) without its credential. */
export const handler = (event: SocketEvent, context?: Context) =>
  runSocket(SOCKET[0], context, async () => {
    const request = {
      connectionId: event.requestContext.connectionId,
      authorization: header(event, "authorization"),
      version: header(event, PUSH.versionHeader),
    };
    await connectRelay(await provisioningStores(), request, new Date());
    return { statusCode: 200 };
  });
