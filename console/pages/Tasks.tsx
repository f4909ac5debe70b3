import { useState } from "preact/hooks";
import { get, request, TASKS } from "../api";
import { ErrorNote, Section, useLoad } from "../ui";

/** A task as the list answers it: with `uri` (the public form) or `id`. */
interface Task {
  id?: number;
  uri?: string;
  title: string;
  description: string;
  done: boolean;
}

const idOf = (task: Task): string => String(task.id ?? task.uri!.split("/").pop());

function TaskRow({ task, onChange }: { task: Task; onChange: (error?: string) => void }) {
  const [editing, setEditing] = useState(false);
  const id = idOf(task);
  const act = async (method: string, body?: unknown) => {
    try {
      await request(method, `${TASKS}/tasks/${id}`, body);
      onChange();
    } catch (error) {
      onChange((error as Error).message);
    }
  };
  if (editing)
    return (
      <li>
        <form
          class="row"
          onSubmit={(event) => {
            event.preventDefault();
            const form = new FormData(event.target as HTMLFormElement);
            setEditing(false);
            act("PUT", { title: String(form.get("title")), description: String(form.get("description")) });
          }}
        >
          <input name="title" defaultValue={task.title} aria-label="Title" required />
          <input name="description" defaultValue={task.description} aria-label="Description" />
          <button type="submit">Save</button>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      </li>
    );
  return (
    <li class={task.done ? "done" : undefined} data-task={id}>
      <label class="check">
        <input type="checkbox" checked={task.done} onChange={() => act("PUT", { done: !task.done })} /> <strong>{task.title}</strong>
      </label>{" "}
      <span class="muted">{task.description}</span>
      <span class="actions">
        <button type="button" onClick={() => setEditing(true)} aria-label={`Edit ${task.title}`}>
          Edit
        </button>
        <button type="button" class="danger" onClick={() => act("DELETE")} aria-label={`Delete ${task.title}`}>
          Delete
        </button>
      </span>
    </li>
  );
}

export function Tasks() {
  const tasks = useLoad(() => get<{ tasks: Task[] }>(`${TASKS}/tasks`), []);
  const [error, setError] = useState<string>();
  const changed = (failure?: string) => {
    setError(failure);
    tasks.reload();
  };
  const add = async (event: Event) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    try {
      await request("POST", `${TASKS}/tasks`, { title: String(data.get("title")), description: String(data.get("description")) });
      form.reset();
      changed();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <Section title="Tasks" actions={<span class="muted">the task list service</span>}>
      <form class="row" onSubmit={add} aria-label="Add a task">
        <input name="title" placeholder="Title" aria-label="Title" required />
        <input name="description" placeholder="Description" aria-label="Description" />
        <button type="submit">Add</button>
      </form>
      <ErrorNote error={error ?? tasks.error} />
      <ul class="tasks">
        {(tasks.data?.tasks ?? []).map((task) => (
          <TaskRow key={idOf(task)} task={task} onChange={changed} />
        ))}
      </ul>
      {tasks.data && tasks.data.tasks.length === 0 && <p class="muted">No tasks.</p>}
    </Section>
  );
}
