import { endpoint } from "../../../lib/http/endpoint";
import { fileNotFound } from "../../../lib/http/presenters/fileAnswer";
import { fileMetadata as route } from "../../../lib/http/provisioning/files/routes";
import { ok } from "../../../lib/http/responses";
import { fileMetadata } from "../../../lib/provisioning/files/fileRecord";
import { findFile } from "../../../lib/provisioning/files/fileService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** An array, as RackHD answered (it kept a record per PUT; a name here has one). */
export const handler = endpoint(route, async ({ params }) => {
  const file = await findFile(await provisioningStores(), params.name, new Date(), true);
  return file ? ok([fileMetadata(file)]) : fileNotFound();
});
