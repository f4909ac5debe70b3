import { endpoint } from "../../../lib/http/endpoint";
import { getNodeIdentify } from "../../../lib/http/provisioning/obm/routes";
import { ok } from "../../../lib/http/responses";
import { identifyState } from "../../../lib/provisioning/obm/identify";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getNodeIdentify, async ({ params }) =>
  ok(await identifyState(await provisioningStores(), params.identifier)),
);
