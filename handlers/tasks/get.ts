import { endpoint } from "../../lib/http/endpoint";
import { presentTasks } from "../../lib/http/presenters/taskPresenter";
import { ok } from "../../lib/http/responses";
import { getTask } from "../../lib/http/tasks/routes";
import { taskStore } from "../../lib/store/compositionRoot";
import * as tasks from "../../lib/tasks/taskService";

export const handler = endpoint(getTask, async ({ event, params }) => {
  const task = await tasks.getTask(taskStore(), Number(params.id));
  return ok({ task: presentTasks(event, "single")(task) });
});
