import { settings } from "../../../lib/config/settings";
import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { microkernelCommands } from "../../../lib/http/provisioning/discovery/routes";
import { noContent, ok } from "../../../lib/http/responses";
import { nextCommands } from "../../../lib/provisioning/discovery/microkernel";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(
  microkernelCommands,
  async ({ event, params, query }) => {
    const caller = { token: query.token?.[0], requireToken: settings().bootTokens };
    const commands = await nextCommands(await bootStores(relayOf(event)), params.identifier, caller, new Date());
    return commands ? ok(commands) : noContent();
  },
  { bootGate },
);
