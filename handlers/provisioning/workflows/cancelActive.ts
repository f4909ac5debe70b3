import { endpoint } from "../../../lib/http/endpoint";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { cancelActiveWorkflow } from "../../../lib/http/provisioning/workflows/routes";
import { ok } from "../../../lib/http/responses";
import { cancelNodeWorkflow } from "../../../lib/provisioning/workflows/workflowService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(cancelActiveWorkflow, async ({ params }) => {
  const workflow = await cancelNodeWorkflow(await provisioningStores(), params.identifier, new Date());
  return ok(presentWorkflow(workflow));
});
