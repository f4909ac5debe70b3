import { endpoint } from "../../../lib/http/endpoint";
import { defineTask } from "../../../lib/http/provisioning/graphs/routes";
import { ok } from "../../../lib/http/responses";
import { defineTask as define } from "../../../lib/provisioning/graphs/libraryService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** Answers the stored definition with its times (RackHD B/C answered the stored document). */
export const handler = endpoint(defineTask, async ({ readBody }) => {
  const { definition, createdAt, updatedAt } = await define(await provisioningStores(), await readBody(), new Date());
  return ok({ ...definition, createdAt, updatedAt });
});
