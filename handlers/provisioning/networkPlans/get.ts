import { endpoint } from "../../../lib/http/endpoint";
import { getNetworkPlan } from "../../../lib/http/provisioning/networkPlans/routes";
import { ok } from "../../../lib/http/responses";
import { getNetworkPlan as get } from "../../../lib/provisioning/networkPlans/planService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getNetworkPlan, async ({ params }) => ok(await get(await provisioningStores(), params.identifier)));
