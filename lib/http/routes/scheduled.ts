import type { DataAccess } from "../../dataAccess";
import { POLLING } from "../provisioning/shared/dataAccess";
import type { HandlerFile } from "./handlerFiles.generated";

/** A function that runs on a schedule (EventBridge on AWS; serverless offline runs it too under `npm start`). */
export interface ScheduledFunction {
  function: string;
  /** The module exporting `handler`, from the repository root, without extension (a file that is not there fails the type check). */
  handler: HandlerFile;
  /** What it may do with the data (lib/dataAccess.ts). */
  data: DataAccess;
  /** An EventBridge schedule expression. */
  rate: string;
  summary: string;
}

export const SCHEDULED = [
  {
    function: "runPollers",
    handler: "handlers/provisioning/pollers/tick",
    data: POLLING,
    rate: "rate(1 minute)",
    summary: "Runs every poller that is due (RackHD's poller scheduler) and marks relays gone quiet as lost, once a minute",
  },
] as const satisfies readonly ScheduledFunction[];
