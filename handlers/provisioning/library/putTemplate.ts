import { endpoint } from "../../../lib/http/endpoint";
import { putTemplate } from "../../../lib/http/provisioning/library/routes";
import { ok } from "../../../lib/http/responses";
import { textBody } from "../../../lib/http/textBody";
import { putLibraryEntry } from "../../../lib/provisioning/library/textLibrary";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** The raw body, whatever its content type, as RackHD era C took it. */
export const handler = endpoint(putTemplate, async ({ event, params }) =>
  ok(await putLibraryEntry(await provisioningStores(), "templates", params.name, textBody(event), new Date())),
);
