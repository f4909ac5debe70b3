import { endpoint } from "../../../lib/http/endpoint";
import { listAnswer } from "../../../lib/http/paging";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { listNodeWorkflows } from "../../../lib/http/provisioning/workflows/routes";
import type { PageRequest } from "../../../lib/provisioning/listPage";
import { nodeWorkflows, nodeWorkflowsPage } from "../../../lib/provisioning/workflows/workflowService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listNodeWorkflows, async ({ event, params, query }) => {
  const stores = await provisioningStores();
  const now = new Date();
  const workflows = {
    page: (request: PageRequest) => nodeWorkflowsPage(stores, params.identifier, request, now),
    all: () => nodeWorkflows(stores, params.identifier, now),
  };
  return listAnswer(event, query, workflows, (page) => page.map(presentWorkflow));
});
