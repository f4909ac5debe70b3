import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { fileAnswer } from "../../../lib/http/presenters/fileAnswer";
import { commonFile } from "../../../lib/http/provisioning/files/routes";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

/** By name, as /files/{name}/latest: the microkernel's kernel and initrd that the discovery profile loads. */
export const handler = endpoint(commonFile, async ({ event, params }) => fileAnswer(await bootStores(relayOf(event)), params.name, true), {
  bootGate,
});
