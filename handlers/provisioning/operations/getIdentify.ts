import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { getNodeIdentify } from "../../../lib/http/routes/operations";
import { identifyState } from "../../../lib/provisioning/obm/identify";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getNodeIdentify, async ({ params }) =>
  ok(await identifyState(await provisioningStores(), params.identifier)),
);
