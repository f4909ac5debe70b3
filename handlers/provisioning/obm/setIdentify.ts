import { endpoint } from "../../../lib/http/endpoint";
import { setNodeIdentify } from "../../../lib/http/provisioning/obm/routes";
import { ok } from "../../../lib/http/responses";
import { findNode } from "../../../lib/provisioning/nodes/findNode";
import { setIdentify } from "../../../lib/provisioning/obm/identify";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** 404 before the body is read; no body turns the light off (RackHD: a missing value is falsy). */
export const handler = endpoint(setNodeIdentify, async ({ params, readBody }) => {
  const stores = await provisioningStores();
  await findNode(stores, params.identifier);
  const body = (await readBody()) ?? {};
  return ok(await setIdentify(stores, params.identifier, body.value, new Date()));
});
