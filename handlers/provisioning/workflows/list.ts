import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { listWorkflows } from "../../../lib/http/provisioning/workflows/routes";
import { listWorkflows as list } from "../../../lib/provisioning/workflows/workflowService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

const ACTIVE_FILTERS: Record<string, { active?: boolean }> = { true: { active: true }, false: { active: false } };

export const handler = endpoint(listWorkflows, async ({ event, query }) => {
  const workflows = await list(await provisioningStores(), ACTIVE_FILTERS[query.active?.[0] ?? ""] ?? {}, new Date());
  return pagedAnswer(event, query, workflows, (page) => page.map(presentWorkflow));
});
