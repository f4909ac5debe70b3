import { listTokens as list } from "../../../lib/auth/apiTokens";
import { endpoint } from "../../../lib/http/endpoint";
import { callerOf } from "../../../lib/http/principal";
import { listTokens } from "../../../lib/http/provisioning/tokens/routes";
import { ok } from "../../../lib/http/responses";
import { apiTokenStore } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listTokens, async ({ event }) => ok(await list(apiTokenStore(), callerOf(event))));
