import { endpoint } from "../../../lib/http/endpoint";
import { nocloudSeed } from "../../../lib/http/provisioning/cloudInit/routes";
import { text } from "../../../lib/http/responses";
import { seedDocument } from "../../../lib/provisioning/cloudInit/instanceService";
import { bootGate, provisioningStores } from "../../../lib/store/compositionRoot";

/** What cloud-init reads from `s=<seed URL>`: it appends the document's name. */
export const handler = endpoint(
  nocloudSeed,
  async ({ params }) => text(200, await seedDocument(await provisioningStores(), params.credential, params.document)),
  { bootGate },
);
