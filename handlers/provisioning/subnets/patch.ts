import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { patchSubnet } from "../../../lib/http/provisioning/subnets/routes";
import { ok } from "../../../lib/http/responses";
import { patchSubnet as patch } from "../../../lib/provisioning/subnets/subnetService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(
  patchSubnet,
  async ({ params, readBody }) => ok(await patch(await provisioningStores(), params.id, await readBody(), new Date())),
  { idempotency: idempotentWith(idempotencyStore) },
);
