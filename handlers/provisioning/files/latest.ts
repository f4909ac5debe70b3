import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { fileAnswer } from "../../../lib/http/presenters/fileAnswer";
import { latestFile } from "../../../lib/http/provisioning/files/routes";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

/** By name only: a name has one file (a PUT replaces its bytes), so it is the latest. */
export const handler = endpoint(latestFile, async ({ event, params }) => fileAnswer(await bootStores(relayOf(event)), params.name, true), {
  bootGate,
});
