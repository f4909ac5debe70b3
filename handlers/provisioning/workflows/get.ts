import { endpoint } from "../../../lib/http/endpoint";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { getWorkflow } from "../../../lib/http/provisioning/workflows/routes";
import { ok } from "../../../lib/http/responses";
import { getWorkflow as get } from "../../../lib/provisioning/workflows/workflowService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getWorkflow, async ({ params }) => {
  const workflow = await get(await provisioningStores(), params.id, new Date());
  return ok(presentWorkflow(workflow));
});
