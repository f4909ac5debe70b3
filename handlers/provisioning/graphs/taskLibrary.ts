import { taskLibrary } from "../../../lib/http/provisioning/graphs/routes";
import { taskDefinitionsOf } from "./taskDefinitions";

export const handler = taskDefinitionsOf(taskLibrary);
