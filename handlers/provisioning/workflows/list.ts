import { endpoint } from "../../../lib/http/endpoint";
import { listAnswer } from "../../../lib/http/paging";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { listWorkflows } from "../../../lib/http/provisioning/workflows/routes";
import type { PageRequest } from "../../../lib/provisioning/listPage";
import { listWorkflows as list, listWorkflowsPage } from "../../../lib/provisioning/workflows/workflowService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

const ACTIVE_FILTERS: Record<string, { active?: boolean }> = { true: { active: true }, false: { active: false } };

export const handler = endpoint(listWorkflows, async ({ event, query }) => {
  const stores = await provisioningStores();
  const filter = ACTIVE_FILTERS[query.active?.[0] ?? ""] ?? {};
  const now = new Date();
  const workflows = {
    page: (request: PageRequest) => listWorkflowsPage(stores, filter, request, now),
    all: () => list(stores, filter, now),
  };
  return listAnswer(event, query, workflows, (page) => page.map(presentWorkflow));
});
