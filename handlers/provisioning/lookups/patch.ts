import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { patchLookup } from "../../../lib/http/provisioning/lookups/routes";
import { ok } from "../../../lib/http/responses";
import { getLookup, patchLookup as patch } from "../../../lib/provisioning/lookups/lookupService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

/** 404 before the body is read. */
export const handler = endpoint(
  patchLookup,
  async ({ params, readBody }) => {
    const stores = await provisioningStores();
    await getLookup(stores, params.id);
    return ok(await patch(stores, params.id, await readBody(), new Date()));
  },
  { idempotency: idempotentWith(idempotencyStore) },
);
