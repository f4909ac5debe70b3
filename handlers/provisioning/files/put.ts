import { PayloadTooLargeError } from "../../../lib/errors";
import { requestBaseUrl } from "../../../lib/http/baseUrl";
import { endpoint } from "../../../lib/http/endpoint";
import { bodyBytes } from "../../../lib/http/middleware/bodyLimit";
import { redirect, text } from "../../../lib/http/responses";
import { putFile as route } from "../../../lib/http/routes/files";
import { bytesBody } from "../../../lib/http/textBody";
import { putFile, startUpload, UPLOAD_MAX_BYTES } from "../../../lib/provisioning/files/fileService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/**
 * The raw body is the file (201, its uuid as text). `?size=` with no body asks where to send a
 * large one: a presigned URL (307), or this same URL where the store takes every file inline.
 */
export const handler = endpoint(route, async ({ event, params, query }) => {
  const stores = await provisioningStores();
  const now = new Date();
  const announced = query.size?.[0];
  const size = bodyBytes(event);
  if (announced !== undefined && size === 0) {
    if (Number(announced) > UPLOAD_MAX_BYTES) throw new PayloadTooLargeError(`A file holds at most ${UPLOAD_MAX_BYTES} bytes`);
    const upload = await startUpload(stores, params.name, Number(announced), now);
    if (upload) return redirect(307, upload.location, { uuid: upload.uuid, expiresInSeconds: upload.expiresInSeconds });
    // This store takes any file inline: send the bytes here, without ?size=.
    return redirect(307, `${requestBaseUrl(event, event.rawPath)}${event.rawPath}`);
  }
  const limit = stores.fileBlobs.inlineMaxBytes;
  if (size > limit) {
    throw new PayloadTooLargeError(
      `A file in the body holds at most ${limit} bytes: for a larger one, PUT with ?size=<bytes> and no body, then PUT the bytes where the answer's Location says`,
    );
  }
  const file = await putFile(stores, params.name, bytesBody(event), now);
  return text(201, file.uuid);
});
