import { endpoint } from "../../../lib/http/endpoint";
import { deleteRelayCredential } from "../../../lib/http/provisioning/relays/routes";
import { ok } from "../../../lib/http/responses";
import { deleteRelayCredential as remove } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(deleteRelayCredential, async ({ params }) =>
  ok(await remove(await provisioningStores(), params.id, params.relayId, new Date())),
);
