import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { listNodeWorkflows } from "../../../lib/http/provisioning/workflows/routes";
import { nodeWorkflows } from "../../../lib/provisioning/workflows/workflowService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listNodeWorkflows, async ({ event, params, query }) => {
  const workflows = await nodeWorkflows(await provisioningStores(), params.identifier, new Date());
  return pagedAnswer(event, query, workflows, (page) => page.map(presentWorkflow));
});
