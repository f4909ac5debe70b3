import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { fileNotFound } from "../../../lib/http/presenters/fileAnswer";
import { fileMd5 } from "../../../lib/http/provisioning/files/routes";
import { ok } from "../../../lib/http/responses";
import { findFile } from "../../../lib/provisioning/files/fileService";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(
  fileMd5,
  async ({ event, params }) => {
    const file = await findFile(await bootStores(relayOf(event)), params.name, new Date(), true);
    return file ? ok(file.content.md5) : fileNotFound();
  },
  { bootGate },
);
