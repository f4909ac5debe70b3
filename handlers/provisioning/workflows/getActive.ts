import { northboundRoute, param } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { nodeActiveWorkflow } from "../../../lib/provisioning/workflows/workflowService";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { noContent, ok } from "../../../lib/http/responses";

/** GET /api/{version}/nodes/{identifier}/workflows/active: 200 with it, 204 when none. */
export const handler = northboundRoute({}, async (event) => {
  const workflow = await nodeActiveWorkflow(await provisioningStores(), param(event, "identifier"), new Date());
  return workflow ? ok(presentWorkflow(workflow)) : noContent();
});
