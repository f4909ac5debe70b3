import { endpoint } from "../../../lib/http/endpoint";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { getActiveWorkflow } from "../../../lib/http/provisioning/workflows/routes";
import { noContent, ok } from "../../../lib/http/responses";
import { nodeActiveWorkflow } from "../../../lib/provisioning/workflows/workflowService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getActiveWorkflow, async ({ params }) => {
  const workflow = await nodeActiveWorkflow(await provisioningStores(), params.identifier, new Date());
  return workflow ? ok(presentWorkflow(workflow)) : noContent();
});
