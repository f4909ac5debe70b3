import { northboundRoute, param } from "../../../lib/provisioning/provisioningRoute";
import { provisioningStores } from "../../../lib/provisioning/stores";
import { getWorkflow } from "../../../lib/provisioning/workflows/workflowService";
import { presentWorkflow } from "../../../lib/provisioning/presenters";
import { ok } from "../../../lib/http/responses";

/** GET /api/{version}/workflows/{id}: by instanceId or record id. */
export const handler = northboundRoute({}, async (event) => {
  const workflow = await getWorkflow(await provisioningStores(), param(event, "id"), new Date());
  return ok(presentWorkflow(workflow));
});
