import { southboundRoute } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { bootProfile } from "../../../lib/provisioning/boot/bootService";
import { apiContext } from "../../../lib/http/requestContext";
import { queryValues } from "../../../lib/http/event";
import { text } from "../../../lib/http/responses";

/** GET /api/{version}/profiles[?macs=...]: the iPXE script for a booting machine. */
export const handler = southboundRoute({}, async (event) => {
  const sourceIp = event.requestContext.http.sourceIp;
  const script = await bootProfile(await provisioningStores(), queryValues(event, "macs"), sourceIp, apiContext(event), new Date());
  return text(200, script);
});
