import { endpoint } from "../../../lib/http/endpoint";
import { nodeAction } from "../../../lib/http/provisioning/relays/routes";
import { requester } from "../../../lib/http/requester";
import { json } from "../../../lib/http/responses";
import { requestNodeAction } from "../../../lib/provisioning/relays/nodeSite";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(nodeAction, async ({ event, params, readBody }) =>
  json(202, await requestNodeAction(await provisioningStores(), params.identifier, await readBody(), requester(event), new Date())),
);
