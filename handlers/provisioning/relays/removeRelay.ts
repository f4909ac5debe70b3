import { endpoint } from "../../../lib/http/endpoint";
import { deleteRelayCredential } from "../../../lib/http/provisioning/relays/routes";
import { ok } from "../../../lib/http/responses";
import { deleteRelayCredential as remove } from "../../../lib/provisioning/relays/siteService";
import { closeRelayPush, provisioningStores } from "../../../lib/store/compositionRoot";

/** The credential revoked, and its open push connections closed at once. */
export const handler = endpoint(deleteRelayCredential, async ({ params }) => {
  const revoked = await remove(await provisioningStores(), params.id, params.relayId, new Date());
  await closeRelayPush(params.id, params.relayId);
  return ok(revoked);
});
