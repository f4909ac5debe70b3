import { southboundRoute, param, query } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { nodeTemplate } from "../../../lib/provisioning/boot/bootService";
import { apiContext } from "../../../lib/http/requestContext";
import { queryValues } from "../../../lib/http/event";
import { text } from "../../../lib/http/responses";

/** GET (and HEAD) /api/{version}/templates/{name}: the install script for the requesting node. */
export const handler = southboundRoute({}, async (event) => {
  const who = { nodeId: query(event, "nodeId"), macs: queryValues(event, "macs"), sourceIp: event.requestContext.http.sourceIp };
  const stores = await provisioningStores();
  const script = await nodeTemplate(stores, param(event, "name"), who, event.rawPath, apiContext(event), new Date());
  return text(200, script);
});
