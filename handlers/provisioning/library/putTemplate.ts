import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { putTemplate } from "../../../lib/http/routes/library";
import { textBody } from "../../../lib/http/textBody";
import { putLibraryEntry } from "../../../lib/provisioning/library/textLibrary";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** The raw body, whatever its content type, as RackHD era C took it. */
export const handler = endpoint(putTemplate, async ({ event, params }) =>
  ok(await putLibraryEntry(await provisioningStores(), "templates", params.name, textBody(event), new Date())),
);
