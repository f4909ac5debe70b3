import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { microkernelBootstrap } from "../../../lib/http/provisioning/discovery/routes";
import { apiContext } from "../../../lib/http/requestContext";
import { json, text } from "../../../lib/http/responses";
import { BOOTSTRAP_NOT_FOUND, bootstrapScript } from "../../../lib/provisioning/discovery/bootstrapScript";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

/** RackHD served the script as text/html; it is JavaScript for `node`. */
export const handler = endpoint(
  microkernelBootstrap,
  async ({ event, query }) => {
    const script = await bootstrapScript(await bootStores(relayOf(event)), query.macAddress?.[0], apiContext(event), new Date());
    return script === undefined ? json(404, { error: BOOTSTRAP_NOT_FOUND }) : text(200, script, "application/javascript; charset=utf-8");
  },
  { bootGate },
);
