import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { startWorkflow } from "../../../lib/http/provisioning/workflows/routes";
import { apiContext } from "../../../lib/http/requestContext";
import { created } from "../../../lib/http/responses";
import { startWorkflow as start } from "../../../lib/provisioning/workflows/workflowService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

/** `{name, options}` in the body, or `?name=` (which wins). */
export const handler = endpoint(
  startWorkflow,
  async ({ event, params, query, readBody }) => {
    const body = (await readBody()) ?? {};
    const request = { name: query.name?.[0] ?? body.name, options: body.options };
    const workflow = await start(await provisioningStores(), params.identifier, request, apiContext(event), new Date());
    return created(presentWorkflow(workflow));
  },
  { idempotency: idempotentWith(idempotencyStore) },
);
