import { endpoint } from "../../../lib/http/endpoint";
import { listHookDeliveries } from "../../../lib/http/provisioning/hooks/routes";
import { ok } from "../../../lib/http/responses";
import { hookDeliveries } from "../../../lib/provisioning/hooks/hookService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listHookDeliveries, async ({ params }) => ok(await hookDeliveries(await provisioningStores(), params.id)));
