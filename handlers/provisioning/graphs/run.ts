import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { runGraph } from "../../../lib/http/provisioning/graphs/routes";
import { apiContext } from "../../../lib/http/requestContext";
import { created } from "../../../lib/http/responses";
import { runGraph as run } from "../../../lib/provisioning/workflows/workflowService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

/** `{name, options}` in the body, or `?name=` (which wins), as on a node. */
export const handler = endpoint(
  runGraph,
  async ({ event, query, readBody }) => {
    const body = (await readBody()) ?? {};
    const request = { name: query.name?.[0] ?? body.name, options: body.options };
    return created(presentWorkflow(await run(await provisioningStores(), request, apiContext(event), new Date())));
  },
  { idempotency: idempotentWith(idempotencyStore) },
);
