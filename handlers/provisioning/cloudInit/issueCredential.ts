import { endpoint } from "../../../lib/http/endpoint";
import { issueInstanceCredential } from "../../../lib/http/provisioning/cloudInit/routes";
import { apiContext } from "../../../lib/http/requestContext";
import { created } from "../../../lib/http/responses";
import { issueInstanceCredential as issue } from "../../../lib/provisioning/cloudInit/instanceService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(issueInstanceCredential, async ({ event, params, readBody }) => {
  const body = await readBody();
  return created(await issue(await provisioningStores(), params.identifier, apiContext(event), new Date(), body?.reinstall === true));
});
