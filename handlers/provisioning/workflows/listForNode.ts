import { northboundRoute, param } from "../../../lib/provisioning/provisioningRoute";
import { provisioningStores } from "../../../lib/provisioning/stores";
import { nodeWorkflows } from "../../../lib/provisioning/workflows/workflowService";
import { presentWorkflow } from "../../../lib/provisioning/presenters";
import { ok } from "../../../lib/http/responses";

/** GET /api/{version}/nodes/{identifier}/workflows: past and active. */
export const handler = northboundRoute({}, async (event) => {
  const workflows = await nodeWorkflows(await provisioningStores(), param(event, "identifier"), new Date());
  return ok(workflows.map(presentWorkflow));
});
