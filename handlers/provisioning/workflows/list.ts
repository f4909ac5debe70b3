import { northboundRoute, query } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { listWorkflows } from "../../../lib/provisioning/workflows/workflowService";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { ok } from "../../../lib/http/responses";

/** GET /api/{version}/workflows[?active=true|false] */
export const handler = northboundRoute({}, async (event) => {
  const active = query(event, "active");
  const filter = active === "true" ? { active: true } : active === "false" ? { active: false } : {};
  const workflows = await listWorkflows(await provisioningStores(), filter, new Date());
  return ok(workflows.map(presentWorkflow));
});
