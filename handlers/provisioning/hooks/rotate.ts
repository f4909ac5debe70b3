import { endpoint } from "../../../lib/http/endpoint";
import { rotateHookSecret } from "../../../lib/http/provisioning/hooks/routes";
import { ok } from "../../../lib/http/responses";
import { rotateHookSecret as rotate } from "../../../lib/provisioning/hooks/hookService";
import { hookSigningKey, provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(rotateHookSecret, async ({ params }) =>
  ok(await rotate(await provisioningStores(), params.id, new Date(), hookSigningKey())),
);
