import type { Context, DynamoDBStreamEvent } from "aws-lambda";
import { TRIGGERED } from "../../../lib/http/routes/triggered";
import { count } from "../../../lib/invocation";
import { runBackground } from "../../../lib/lambda/backgroundFunction";
import { fanOut } from "../../../lib/provisioning/hooks/deliveryService";
import { deployedDelivery, provisioningStores } from "../../../lib/store/compositionRoot";

/**
 * The table's stream of new events (deployed, STORE=dynamodb): each on the bus, and queued for
 * each hook that wants it (EventsPublished, DeliveriesQueued). A failure fails the batch, which
 * the stream gives again (halved down to the failing record); an event put twice carries the same
 * id, which receivers drop.
 */
export const handler = (stream: DynamoDBStreamEvent, context?: Context): Promise<void> =>
  runBackground(TRIGGERED[0], context, async () => {
    const delivery = deployedDelivery();
    const events = delivery.eventsOfStream(stream.Records);
    if (events.length === 0) return;
    await delivery.putOnBus(events);
    count("EventsPublished", events.length);
    count("DeliveriesQueued", await fanOut({ stores: await provisioningStores(), queue: delivery.queue }, events));
  });
