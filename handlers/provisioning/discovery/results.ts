import { settings } from "../../../lib/config/settings";
import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { microkernelResults } from "../../../lib/http/provisioning/discovery/routes";
import { acceptResults, resultsIn } from "../../../lib/provisioning/discovery/microkernel";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

/** 201 with no body, as RackHD answered every post. */
export const handler = endpoint(
  microkernelResults,
  async ({ event, params, query, readBody }) => {
    const body = await readBody();
    const caller = { token: query.token?.[0], requireToken: settings().bootTokens };
    await acceptResults(await bootStores(relayOf(event)), params.identifier, resultsIn(body), caller, new Date());
    return { statusCode: 201, headers: {}, body: "" };
  },
  { bootGate },
);
