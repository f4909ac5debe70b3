import { settings } from "../../../lib/config/settings";
import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { uefiLoader } from "../../../lib/http/provisioning/boot/routes";
import { ok } from "../../../lib/http/responses";
import { uefiLoaderFor } from "../../../lib/provisioning/boot/bootService";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

/** `?macs=<mac>`: the relay's TFTP asks which loader to serve as `uefi.efi`. */
export const handler = endpoint(
  uefiLoader,
  async ({ event, query }) => ok(await uefiLoaderFor(await bootStores(relayOf(event)), query.macs ?? [], settings().uefiLoader)),
  { bootGate },
);
