import { settings } from "../../../lib/config/settings";
import { endpoint } from "../../../lib/http/endpoint";
import { microkernelCommands } from "../../../lib/http/provisioning/discovery/routes";
import { noContent, ok } from "../../../lib/http/responses";
import { nextCommands } from "../../../lib/provisioning/discovery/microkernel";
import { bootGate, provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(
  microkernelCommands,
  async ({ params, query }) => {
    const caller = { token: query.token?.[0], requireToken: settings().bootTokens };
    const commands = await nextCommands(await provisioningStores(), params.identifier, caller, new Date());
    return commands ? ok(commands) : noContent();
  },
  { bootGate },
);
