import { requestBaseUrl } from "../../../lib/http/baseUrl";
import { endpoint } from "../../../lib/http/endpoint";
import { bodyBytes } from "../../../lib/http/middleware/bodyLimit";
import { putFile as route } from "../../../lib/http/provisioning/files/routes";
import { redirect, text } from "../../../lib/http/responses";
import { bytesBody } from "../../../lib/http/textBody";
import { putFile, startUpload } from "../../../lib/provisioning/files/fileService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/**
 * The raw body is the file (201, its uuid as text). `?size=` with no body asks where to send a
 * large one: a presigned URL (307), or this same URL where the store takes every file inline.
 */
export const handler = endpoint(route, async ({ event, params, query }) => {
  const stores = await provisioningStores();
  const announced = query.size?.[0];
  if (announced !== undefined && bodyBytes(event) === 0) {
    const upload = await startUpload(stores, params.name, Number(announced), new Date());
    if (upload) return redirect(307, upload.location, { uuid: upload.uuid, expiresInSeconds: upload.expiresInSeconds });
    // This store takes any file inline: send the bytes here (scheme and host as the client used them), without ?size=.
    return redirect(307, `${requestBaseUrl(event, event.rawPath)}${event.rawPath}`);
  }
  return text(201, (await putFile(stores, params.name, bytesBody(event), new Date())).uuid);
});
