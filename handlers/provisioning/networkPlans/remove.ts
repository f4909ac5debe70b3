import { endpoint } from "../../../lib/http/endpoint";
import { deleteNetworkPlan } from "../../../lib/http/provisioning/networkPlans/routes";
import { noContent } from "../../../lib/http/responses";
import { deleteNetworkPlan as remove } from "../../../lib/provisioning/networkPlans/planService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(deleteNetworkPlan, async ({ params }) => {
  await remove(await provisioningStores(), params.identifier, new Date());
  return noContent();
});
