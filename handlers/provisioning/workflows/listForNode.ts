import { northboundRoute, param } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { nodeWorkflows } from "../../../lib/provisioning/workflows/workflowService";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { ok } from "../../../lib/http/responses";

/** GET /api/{version}/nodes/{identifier}/workflows: past and active. */
export const handler = northboundRoute({}, async (event) => {
  const workflows = await nodeWorkflows(await provisioningStores(), param(event, "identifier"), new Date());
  return ok(workflows.map(presentWorkflow));
});
