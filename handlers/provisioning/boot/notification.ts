import { southboundRoute, queryParameters } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { notify } from "../../../lib/provisioning/boot/bootService";
import { isPlainObject } from "../../../lib/json";
import { created } from "../../../lib/http/responses";

/** POST /api/{version}/notification[?nodeId=]: query values win over body values (RackHD's _.defaults). */
export const handler = southboundRoute({ body: "optional" }, async (event) => {
  const fromQuery = Object.fromEntries(Object.entries(queryParameters(event)).map(([key, values]) => [key, values[0]]));
  const message = { ...(isPlainObject(event.body) ? event.body : {}), ...fromQuery };
  return created(await notify(await provisioningStores(), message, new Date()));
});
