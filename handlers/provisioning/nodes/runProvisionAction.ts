import { settings } from "../../../lib/config/settings";
import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { presentNode, presentWorkflow } from "../../../lib/http/presenters/provisioningPresenters";
import { actorOf } from "../../../lib/http/principal";
import { runProvisionAction } from "../../../lib/http/provisioning/nodes/routes";
import { apiContext } from "../../../lib/http/requestContext";
import { json } from "../../../lib/http/responses";
import { performAction } from "../../../lib/provisioning/lifecycle/actionService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

/** 202: the action has begun; its workflow moves the node on as it ends. */
export const handler = endpoint(
  runProvisionAction,
  async ({ event, params, readBody }) => {
    const request = await readBody();
    const { releaseErase } = settings();
    const done = await performAction(
      await provisioningStores(),
      params.identifier,
      request,
      apiContext(event),
      { releaseErase },
      actorOf(event),
      new Date(),
    );
    return json(202, { node: presentNode(done.node), workflow: presentWorkflow(done.workflow) });
  },
  { idempotency: idempotentWith(idempotencyStore) },
);
