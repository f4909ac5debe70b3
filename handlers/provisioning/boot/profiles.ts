import { settings } from "../../../lib/config/settings";
import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { bootProfile } from "../../../lib/http/provisioning/boot/routes";
import { apiContext } from "../../../lib/http/requestContext";
import { text } from "../../../lib/http/responses";
import { count } from "../../../lib/invocation";
import { parseLoader } from "../../../lib/provisioning/boot/bootLoader";
import { bootProfile as profile } from "../../../lib/provisioning/boot/bootService";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

/** `?macs=a&macs=b` or `?macs=a,b`; `?loader=grub` for GRUB's script. */
export const handler = endpoint(
  bootProfile,
  async ({ event, query }) => {
    const { sourceIp } = event.requestContext.http;
    const discovery = { graph: settings().discoveryGraph };
    const loader = parseLoader(query.loader);
    const stores = await bootStores(relayOf(event));
    const script = await profile(stores, query.macs ?? [], sourceIp, apiContext(event), new Date(), discovery, loader);
    // A machine's boot (the first request, without its MACs, only chains back to this one).
    if (query.macs?.length) count("Boots");
    return text(200, script);
  },
  { bootGate },
);
