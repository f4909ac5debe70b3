import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { presentSku } from "../../../lib/http/presenters/provisioningPresenters";
import { patchSku } from "../../../lib/http/provisioning/skus/routes";
import { ok } from "../../../lib/http/responses";
import { getSku, patchSku as patch } from "../../../lib/provisioning/skus/skuService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

/** 404 before the body is read, as RackHD's order. */
export const handler = endpoint(
  patchSku,
  async ({ params, readBody }) => {
    const stores = await provisioningStores();
    await getSku(stores, params.id);
    return ok(presentSku(await patch(stores, params.id, await readBody(), new Date())));
  },
  { idempotency: idempotentWith(idempotencyStore) },
);
