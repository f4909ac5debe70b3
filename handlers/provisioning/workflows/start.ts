import { northboundRoute, param, query } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { startWorkflow } from "../../../lib/provisioning/workflows/workflowService";
import { apiContext } from "../../../lib/http/requestContext";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { isPlainObject } from "../../../lib/json";
import { created } from "../../../lib/http/responses";

/** POST /api/{version}/nodes/{identifier}/workflows with {name, options} or ?name= (which wins). */
export const handler = northboundRoute({ body: "optional" }, async (event) => {
  const body = isPlainObject(event.body) ? event.body : {};
  const request = { name: query(event, "name") ?? body.name, options: body.options };
  const workflow = await startWorkflow(await provisioningStores(), param(event, "identifier"), request, apiContext(event), new Date());
  return created(presentWorkflow(workflow));
});
