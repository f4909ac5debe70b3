import { endpoint } from "../../../lib/http/endpoint";
import { listProvisionActions } from "../../../lib/http/provisioning/nodes/routes";
import { ok } from "../../../lib/http/responses";
import { listActions } from "../../../lib/provisioning/lifecycle/actionService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listProvisionActions, async ({ params }) =>
  ok(await listActions(await provisioningStores(), params.identifier)),
);
