import { endpoint } from "../../../lib/http/endpoint";
import { requester } from "../../../lib/http/requester";
import { json } from "../../../lib/http/responses";
import { nodeAction } from "../../../lib/http/routes/relays";
import { requestNodeAction } from "../../../lib/provisioning/relays/nodeSite";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(nodeAction, async ({ event, params, readBody }) =>
  json(202, await requestNodeAction(await provisioningStores(), params.identifier, await readBody(), requester(event), new Date())),
);
