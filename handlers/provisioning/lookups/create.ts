import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { createLookup } from "../../../lib/http/provisioning/lookups/routes";
import { ok } from "../../../lib/http/responses";
import { createLookup as create } from "../../../lib/provisioning/lookups/lookupService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

/** 200, not 201: RackHD's answer. */
export const handler = endpoint(
  createLookup,
  async ({ readBody }) => ok(await create(await provisioningStores(), await readBody(), new Date())),
  { idempotency: idempotentWith(idempotencyStore) },
);
