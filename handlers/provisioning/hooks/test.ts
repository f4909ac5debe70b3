import { endpoint } from "../../../lib/http/endpoint";
import { testHook } from "../../../lib/http/provisioning/hooks/routes";
import { ok } from "../../../lib/http/responses";
import { testDelivery } from "../../../lib/provisioning/hooks/deliveryService";
import { hookToTest } from "../../../lib/provisioning/hooks/hookService";
import { testDeliveryDeps } from "../../../lib/store/compositionRoot";

export const handler = endpoint(testHook, async ({ params }) => {
  const deps = await testDeliveryDeps();
  return ok(await testDelivery(deps, await hookToTest(deps.stores, params.id)));
});
