import { endpoint } from "../../../lib/http/endpoint";
import { putNetworkPlan } from "../../../lib/http/provisioning/networkPlans/routes";
import { ok } from "../../../lib/http/responses";
import { setNetworkPlan } from "../../../lib/provisioning/networkPlans/planService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(putNetworkPlan, async ({ params, readBody }) =>
  ok(await setNetworkPlan(await provisioningStores(), params.identifier, await readBody(), new Date())),
);
