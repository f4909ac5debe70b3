import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { switchProfile } from "../../../lib/http/provisioning/boot/routes";
import { apiContext } from "../../../lib/http/requestContext";
import { text } from "../../../lib/http/responses";
import { switchProfile as profile } from "../../../lib/provisioning/boot/switchProfile";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(
  switchProfile,
  async ({ event, params, query }) => {
    const { sourceIp } = event.requestContext.http;
    return text(
      200,
      await profile(await bootStores(relayOf(event)), params.vendor, query.macs ?? [], sourceIp, apiContext(event), new Date()),
    );
  },
  { bootGate },
);
