import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { fileAnswer } from "../../../lib/http/presenters/fileAnswer";
import { getFile } from "../../../lib/http/provisioning/files/routes";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

/** By uuid (RackHD's way) or by name. */
export const handler = endpoint(getFile, async ({ event, params }) => fileAnswer(await bootStores(relayOf(event)), params.name, false), {
  bootGate,
});
