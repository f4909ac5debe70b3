import type { Access } from "./endpoint";

/** A function that runs on a schedule (EventBridge on AWS; serverless offline runs it too under `npm start`). */
export interface ScheduledFunction {
  function: string;
  /** The module exporting `handler`, from the repository root, without extension. */
  handler: string;
  access: Access;
  /** An EventBridge schedule expression. */
  rate: string;
  summary: string;
}

export const SCHEDULED: readonly ScheduledFunction[] = [
  {
    function: "runPollers",
    handler: "handlers/provisioning/pollers/tick",
    access: "provisioningWrite",
    rate: "rate(1 minute)",
    summary: "Runs every poller that is due (RackHD's poller scheduler), once a minute",
  },
];
