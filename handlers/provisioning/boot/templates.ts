import { settings } from "../../../lib/config/settings";
import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { nodeTemplate } from "../../../lib/http/provisioning/boot/routes";
import { apiContext } from "../../../lib/http/requestContext";
import { text } from "../../../lib/http/responses";
import { nodeTemplate as template } from "../../../lib/provisioning/boot/bootService";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

/** GET and HEAD (`wget --spider`, RackHD's A/B completion signal): a request to the completionUri completes the install. */
export const handler = endpoint(
  nodeTemplate,
  async ({ event, params, query }) => {
    const who = {
      nodeId: query.nodeId?.[0],
      macs: query.macs ?? [],
      sourceIp: event.requestContext.http.sourceIp,
      token: query.token?.[0],
    };
    const policy = { requireToken: settings().bootTokens };
    const script = await template(await bootStores(relayOf(event)), params.name, who, event.rawPath, apiContext(event), new Date(), policy);
    return text(200, script);
  },
  { bootGate },
);
