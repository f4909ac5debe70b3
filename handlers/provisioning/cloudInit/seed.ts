import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { nocloudSeed } from "../../../lib/http/provisioning/cloudInit/routes";
import { apiContext } from "../../../lib/http/requestContext";
import { text } from "../../../lib/http/responses";
import { seedDocument } from "../../../lib/provisioning/cloudInit/seedService";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

/** What cloud-init reads from `s=<seed URL>` (it appends the document's name), and the EC2-style tree under it. */
export const handler = endpoint(
  nocloudSeed,
  async ({ event, params }) =>
    text(200, await seedDocument(await bootStores(relayOf(event)), params.credential, params.path, apiContext(event), new Date())),
  { bootGate },
);
