import { endpoint } from "../../lib/http/endpoint";
import { idempotentWith } from "../../lib/http/idempotentRequest";
import { presentTasks } from "../../lib/http/presenters/taskPresenter";
import { ok } from "../../lib/http/responses";
import { updateTask } from "../../lib/http/tasks/routes";
import { idempotencyStore, taskStore } from "../../lib/store/compositionRoot";
import * as tasks from "../../lib/tasks/taskService";

/** The body is read only once the task is known to exist (404 before 400). */
export const handler = endpoint(
  updateTask,
  async ({ event, params, readBody }) => {
    const task = await tasks.updateTask(taskStore(), Number(params.id), readBody);
    return ok({ task: presentTasks(event, "single")(task) });
  },
  { idempotency: idempotentWith(idempotencyStore) },
);
