import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { presentSku } from "../../../lib/http/presenters/provisioningPresenters";
import { createSku } from "../../../lib/http/provisioning/skus/routes";
import { ok } from "../../../lib/http/responses";
import { createSku as create } from "../../../lib/provisioning/skus/skuService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

/** 200, not 201: RackHD's answer, which every client expects. */
export const handler = endpoint(
  createSku,
  async ({ readBody }) => ok(presentSku(await create(await provisioningStores(), await readBody(), new Date()))),
  { idempotency: idempotentWith(idempotencyStore) },
);
