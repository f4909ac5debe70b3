import { northboundRoute, param } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { cancelNodeWorkflow } from "../../../lib/provisioning/workflows/workflowService";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { ok } from "../../../lib/http/responses";

/** DELETE /api/{version}/nodes/{identifier}/workflows/active: 200 with the cancelled workflow, 404 when none. */
export const handler = northboundRoute({}, async (event) => {
  const workflow = await cancelNodeWorkflow(await provisioningStores(), param(event, "identifier"), new Date());
  return ok(presentWorkflow(workflow));
});
