import { taskRoute } from "../../lib/tasks/taskRoute";
import { taskStore } from "../../lib/tasks/taskStoreProvider";
import { deleteTask } from "../../lib/tasks/taskService";
import { parseTaskId } from "../../lib/tasks/task";
import { ok } from "../../lib/http/responses";

/** DELETE /todo/api/v1.0/tasks/{id} */
export const handler = taskRoute({}, async (event) => {
  await deleteTask(taskStore(), parseTaskId(event.pathParameters?.id));
  return ok({ result: true });
});
