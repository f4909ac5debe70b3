import { taskList } from "../../../lib/http/provisioning/graphs/routes";
import { taskDefinitionsOf } from "./taskDefinitions";

/** GET /workflows/tasks: the same answer as /workflows/tasks/library (RackHD served both). */
export const handler = taskDefinitionsOf(taskList);
