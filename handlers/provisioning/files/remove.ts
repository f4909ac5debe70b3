import { endpoint } from "../../../lib/http/endpoint";
import { fileNotFound } from "../../../lib/http/presenters/fileAnswer";
import { deleteFile as route } from "../../../lib/http/provisioning/files/routes";
import { noContent } from "../../../lib/http/responses";
import { deleteFile } from "../../../lib/provisioning/files/fileService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** By uuid (RackHD's way) or by name; 204. */
export const handler = endpoint(route, async ({ params }) =>
  (await deleteFile(await provisioningStores(), params.name)) ? noContent() : fileNotFound(),
);
