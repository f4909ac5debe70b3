import { taskRoute } from "../../lib/http/taskRoute";
import { taskStore } from "../../lib/store/compositionRoot";
import { updateTask } from "../../lib/tasks/taskService";
import { parseTaskId } from "../../lib/tasks/task";
import { taskPresenter } from "../../lib/http/presenters/taskPresenter";
import { parseJsonBody } from "../../lib/http/middleware/jsonBody";
import { ok } from "../../lib/http/responses";

/** PUT /todo/api/v1.0/tasks/{id}: the body is parsed only once the task is known to exist. */
export const handler = taskRoute({}, async (event) => {
  const id = parseTaskId(event.pathParameters?.id);
  const task = await updateTask(taskStore(), id, () => parseJsonBody(event, "required"));
  return ok({ task: taskPresenter(event, "single")(task) });
});
