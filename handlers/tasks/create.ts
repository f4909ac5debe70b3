import { taskRoute } from "../../lib/http/taskRoute";
import { taskStore } from "../../lib/store/compositionRoot";
import { createTask } from "../../lib/tasks/taskService";
import { taskPresenter } from "../../lib/http/presenters/taskPresenter";
import { created } from "../../lib/http/responses";

/** POST /todo/api/v1.0/tasks */
export const handler = taskRoute({ body: "required" }, async (event) => {
  const task = await createTask(taskStore(), event.body);
  return created({ task: taskPresenter(event, "single")(task) });
});
