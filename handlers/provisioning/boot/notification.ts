import { settings } from "../../../lib/config/settings";
import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { notification } from "../../../lib/http/provisioning/boot/routes";
import { created } from "../../../lib/http/responses";
import { notify } from "../../../lib/provisioning/boot/bootService";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

/** `?nodeId=`: query values win over body values (RackHD's _.defaults). */
export const handler = endpoint(
  notification,
  async ({ event, query, readBody }) => {
    const fromQuery = Object.fromEntries(Object.entries(query).map(([key, values]) => [key, values[0]]));
    const message = { ...(await readBody()), ...fromQuery };
    return created(await notify(await bootStores(relayOf(event)), message, new Date(), { requireToken: settings().bootTokens }));
  },
  { bootGate },
);
