import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import { TRIGGERED } from "../../../lib/http/routes/triggered";
import { count } from "../../../lib/invocation";
import { runBackground } from "../../../lib/lambda/backgroundFunction";
import { logLine } from "../../../lib/logger";
import { deliver } from "../../../lib/provisioning/hooks/deliveryService";
import { deliveryDeps, deployedDelivery } from "../../../lib/store/compositionRoot";

/**
 * The delivery queue (deployed): one attempt per message, a batch at once (Deliveries,
 * DeliveriesFailed). A message not yet due (a wait past SQS's 15 minutes) is queued again for the
 * rest; one that could not be handled (a store error, not the receiver's answer) comes back alone.
 */
export const handler = (batch: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
  runBackground(TRIGGERED[1], context, async () => {
    const deps = await deliveryDeps();
    const failed = await Promise.all(
      batch.Records.map(async (record) => {
        try {
          const { message, wait } = deployedDelivery().queuedDelivery(record.body, deps.now());
          if (wait > 0) await deps.queue.send([message], wait);
          else count((await deliver(deps, message))?.ok === false ? "DeliveriesFailed" : "Deliveries");
          return undefined;
        } catch (error) {
          logLine({
            level: "error",
            msg: "delivery not handled; it comes back",
            messageId: record.messageId,
            error: (error as Error).message,
          });
          return record.messageId;
        }
      }),
    );
    return { batchItemFailures: failed.filter((id) => id !== undefined).map((itemIdentifier) => ({ itemIdentifier })) };
  });
