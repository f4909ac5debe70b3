import { endpoint } from "../../../lib/http/endpoint";
import { fileAnswer } from "../../../lib/http/presenters/fileAnswer";
import { getFile } from "../../../lib/http/provisioning/files/routes";
import { bootGate, provisioningStores } from "../../../lib/store/compositionRoot";

/** By uuid (RackHD's way) or by name. */
export const handler = endpoint(getFile, async ({ params }) => fileAnswer(await provisioningStores(), params.name, false), { bootGate });
