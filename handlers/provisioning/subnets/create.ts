import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { createSubnet } from "../../../lib/http/provisioning/subnets/routes";
import { created } from "../../../lib/http/responses";
import { createSubnet as create } from "../../../lib/provisioning/subnets/subnetService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(
  createSubnet,
  async ({ readBody }) => created(await create(await provisioningStores(), await readBody(), new Date())),
  { idempotency: idempotentWith(idempotencyStore) },
);
