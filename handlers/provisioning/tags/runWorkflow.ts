import { endpoint } from "../../../lib/http/endpoint";
import { presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { runTagWorkflow } from "../../../lib/http/provisioning/tags/routes";
import { apiContext } from "../../../lib/http/requestContext";
import { json } from "../../../lib/http/responses";
import { runOnTagged } from "../../../lib/provisioning/tags/tagService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** `?name=` wins over the body's name, as on a node. */
export const handler = endpoint(runTagWorkflow, async ({ event, params, query, readBody }) => {
  const body = (await readBody()) ?? {};
  const request = { name: query.name?.[0] ?? body.name, options: body.options };
  const started = await runOnTagged(await provisioningStores(), params.name, request, apiContext(event), new Date());
  return json(202, started.map(presentWorkflow));
});
