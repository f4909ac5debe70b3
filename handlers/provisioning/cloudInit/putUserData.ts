import { endpoint } from "../../../lib/http/endpoint";
import { putUserData } from "../../../lib/http/provisioning/cloudInit/routes";
import { ok } from "../../../lib/http/responses";
import { setUserData } from "../../../lib/provisioning/cloudInit/instanceService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(putUserData, async ({ params, readBody }) => {
  const { userData } = await readBody();
  return ok(await setUserData(await provisioningStores(), params.identifier, userData, new Date()));
});
