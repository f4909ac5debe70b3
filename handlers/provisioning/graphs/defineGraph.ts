import { endpoint } from "../../../lib/http/endpoint";
import { defineGraph } from "../../../lib/http/provisioning/graphs/routes";
import { ok } from "../../../lib/http/responses";
import { defineGraph as define } from "../../../lib/provisioning/graphs/libraryService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** Answers the graph's name as a JSON string, as RackHD did. */
export const handler = endpoint(defineGraph, async ({ readBody }) =>
  ok(await define(await provisioningStores(), await readBody(), new Date())),
);
