import type { Context } from "aws-lambda";
import { header } from "../../../lib/http/event";
import { SOCKET } from "../../../lib/http/routes/socket";
import { countedConnect } from "../../../lib/lambda/countedConnect";
import { runSocket, type SocketEvent } from "../../../lib/lambda/socketFunction";
import { connectRelay } from "../../../lib/provisioning/relays/push";
import { parseRelayToken } from "../../../lib/provisioning/relays/site";
import { composeOperatorStores, provisioningStores } from "../../../lib/store/compositionRoot";
import { PUSH } from "../../../lib/wire/relay";

// Its refusals are counted and go to the audit trail.
composeOperatorStores();

/** `$connect` of the WebSocket API (SOCKET in lib/http/routes/socket.ts): a relay's push connection, refused (401) without its credential, held (429) after too many refusals. */
export const handler = (event: SocketEvent, context?: Context) =>
  runSocket(SOCKET[0], context, async () => {
    const authorization = header(event, "authorization");
    const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
    const attempt = {
      action: SOCKET[0].function,
      claimed: `relay:${(token && parseRelayToken(token)?.credentialId) ?? "none"}`,
      sourceIp: event.requestContext.identity?.sourceIp,
      connectionId: event.requestContext.connectionId,
    };
    const now = new Date();
    await countedConnect(
      attempt,
      async () => {
        await connectRelay(
          await provisioningStores(),
          { connectionId: attempt.connectionId, authorization, version: header(event, PUSH.versionHeader) },
          now,
        );
      },
      now,
    );
    return { statusCode: 200 };
  });
