import { endpoint } from "../../../lib/http/endpoint";
import { getUserData } from "../../../lib/http/provisioning/cloudInit/routes";
import { ok } from "../../../lib/http/responses";
import { userDataStatus } from "../../../lib/provisioning/cloudInit/instanceService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getUserData, async ({ params }) => ok(await userDataStatus(await provisioningStores(), params.identifier)));
