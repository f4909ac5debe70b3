import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { createPoller } from "../../../lib/http/provisioning/pollers/routes";
import { ok } from "../../../lib/http/responses";
import { presentPoller } from "../../../lib/provisioning/pollers/poller";
import { createPoller as create } from "../../../lib/provisioning/pollers/pollerService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

/** 200, not 201: RackHD's answer, which FIT expects. */
export const handler = endpoint(
  createPoller,
  async ({ readBody }) => ok(presentPoller(await create(await provisioningStores(), await readBody(), new Date()))),
  { idempotency: idempotentWith(idempotencyStore) },
);
