import { endpoint } from "../../lib/http/endpoint";
import { idempotentWith } from "../../lib/http/idempotentRequest";
import { presentTasks } from "../../lib/http/presenters/taskPresenter";
import { created } from "../../lib/http/responses";
import { createTask } from "../../lib/http/tasks/routes";
import { idempotencyStore, taskStore } from "../../lib/store/compositionRoot";
import * as tasks from "../../lib/tasks/taskService";

export const handler = endpoint(
  createTask,
  async ({ event, readBody }) => {
    const task = await tasks.createTask(taskStore(), await readBody());
    return created({ task: presentTasks(event, "single")(task) });
  },
  { idempotency: idempotentWith(idempotencyStore) },
);
