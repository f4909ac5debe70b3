import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { deleteRelayCredential } from "../../../lib/http/routes/relays";
import { deleteRelayCredential as remove } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(deleteRelayCredential, async ({ params }) =>
  ok(await remove(await provisioningStores(), params.id, params.relayId, new Date())),
);
