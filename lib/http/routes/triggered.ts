import type { DataAccess } from "../../dataAccess";
import type { HandlerFile } from "./handlerFiles.generated";

/**
 * Functions a deployed stack's queues and streams run (STORE=dynamodb): the table's stream of new
 * events feeds `publishEvents` (each event to the bus, and to the delivery queue once per hook that
 * wants it), and the delivery queue feeds `deliverEvents` (one attempt per message). Locally
 * (serverless offline) the same domain code runs in-process instead (lib/store/localDelivery.ts).
 */
export interface TriggeredFunction {
  function: string;
  /** The module exporting `handler`, from the repository root, without extension (a file that is not there fails the type check). */
  handler: HandlerFile;
  data: DataAccess;
  trigger: "eventStream" | "deliveryQueue";
  /** Seconds: a delivery waits up to 10 s for its receiver, and a batch holds 10 (sent at once). */
  timeout: number;
  summary: string;
}

export const TRIGGERED = [
  {
    function: "publishEvents",
    handler: "handlers/provisioning/events/publish",
    data: { read: ["hooks"] },
    trigger: "eventStream",
    timeout: 30,
    summary: "Puts each new event on the event bus and queues it for each hook that wants it (the table's stream)",
  },
  {
    function: "deliverEvents",
    handler: "handlers/provisioning/events/deliver",
    data: { read: ["hooks"], write: ["hooks", "deliveries"] },
    trigger: "deliveryQueue",
    timeout: 30,
    summary: "Delivers each queued event to its hook, signed; a failure comes back after its wait (the delivery queue)",
  },
] as const satisfies readonly TriggeredFunction[];

/** What a triggered function needs beyond its data: the stream it reads, the queue it sends to or reads, the bus. */
export const TRIGGER_NEEDS = {
  eventStream: { eventStream: true, eventBus: true, deliveryQueue: "send" },
  deliveryQueue: { deliveryQueue: "consume" },
} as const;
