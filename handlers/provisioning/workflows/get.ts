import { northboundRoute, param } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { getWorkflow } from "../../../lib/provisioning/workflows/workflowService";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { ok } from "../../../lib/http/responses";

/** GET /api/{version}/workflows/{id}: by instanceId or record id. */
export const handler = northboundRoute({}, async (event) => {
  const workflow = await getWorkflow(await provisioningStores(), param(event, "id"), new Date());
  return ok(presentWorkflow(workflow));
});
