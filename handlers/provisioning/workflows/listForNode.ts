import { endpoint } from "../../../lib/http/endpoint";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { ok } from "../../../lib/http/responses";
import { listNodeWorkflows } from "../../../lib/http/routes/provisioning";
import { nodeWorkflows } from "../../../lib/provisioning/workflows/workflowService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listNodeWorkflows, async ({ params }) => {
  const workflows = await nodeWorkflows(await provisioningStores(), params.identifier, new Date());
  return ok(workflows.map(presentWorkflow));
});
