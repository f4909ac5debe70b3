import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { patchPoller } from "../../../lib/http/provisioning/pollers/routes";
import { ok } from "../../../lib/http/responses";
import { presentPoller } from "../../../lib/provisioning/pollers/poller";
import { getPoller, patchPoller as patch } from "../../../lib/provisioning/pollers/pollerService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

/** 404 before the body is read. */
export const handler = endpoint(
  patchPoller,
  async ({ params, readBody }) => {
    const stores = await provisioningStores();
    await getPoller(stores, params.id);
    return ok(presentPoller(await patch(stores, params.id, await readBody(), new Date())));
  },
  { idempotency: idempotentWith(idempotencyStore) },
);
