import { useState } from "preact/hooks";
import { get, getAll, PROVISIONING, request } from "../api";
import type { GraphDefinition, TaskDefinition, Workflow } from "../model";
import { ErrorNote, Field, link, Section, useLoad } from "../ui";

interface OptionField {
  label: string;
  key: string;
  initial: unknown;
  /** The graph itself leaves it null: the one running it must give it (RackHD's Graph.InstallCentOS `version`). */
  required: boolean;
}

/** The options a graph's form shows: each task's options, with the graph's defaults and its own for that task. */
function fieldsOf(graph: GraphDefinition, tasks: Map<string, TaskDefinition>): OptionField[] {
  const defaults = graph.options?.defaults ?? {};
  return graph.tasks.flatMap((task) => {
    const own = graph.options?.[task.label] ?? {};
    const base = (task.taskName && tasks.get(task.taskName)?.options) || {};
    const keys = new Set([...Object.keys(base), ...Object.keys(own)]);
    return [...keys].sort().map((key) => {
      const fromGraph = key in own ? own[key] : defaults[key];
      return { label: task.label, key, initial: fromGraph !== undefined ? fromGraph : base[key], required: fromGraph === null };
    });
  });
}

const asText = (value: unknown): string =>
  value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);

/** The options to send: every field changed from its default (an empty one with no default is not sent). */
function optionsFrom(form: FormData, fields: OptionField[]): Record<string, Record<string, unknown>> {
  const options: Record<string, Record<string, unknown>> = {};
  for (const field of fields) {
    const text = String(form.get(`${field.label}.${field.key}`) ?? "");
    if (text === asText(field.initial)) continue;
    let value: unknown = text;
    if (field.initial !== null && typeof field.initial !== "string") {
      try {
        value = JSON.parse(text);
      } catch {
        throw new Error(`${field.label} → ${field.key} must be JSON (${asText(field.initial)} as the default shows)`);
      }
    }
    options[field.label] ??= {};
    options[field.label][field.key] = value;
  }
  return options;
}

export function StartWorkflow({ nodeId }: { nodeId: string }) {
  const library = useLoad(async () => {
    const [graphs, tasks] = await Promise.all([
      getAll<GraphDefinition>(`${PROVISIONING}/workflows/library`),
      get<TaskDefinition[]>(`${PROVISIONING}/workflows/tasks/library`),
    ]);
    return { graphs, tasks: new Map(tasks.map((task) => [task.injectableName, task])) };
  }, []);
  const [name, setName] = useState("");
  const [error, setError] = useState<string>();
  const graph = library.data?.graphs.find((candidate) => candidate.injectableName === name);
  const fields = graph && library.data ? fieldsOf(graph, library.data.tasks) : [];
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      setError(undefined);
      const options = optionsFrom(new FormData(event.target as HTMLFormElement), fields);
      const started = await request<Workflow>("POST", `${PROVISIONING}/nodes/${encodeURIComponent(nodeId)}/workflows`, { name, options });
      location.hash = link("workflows", started.body.instanceId);
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <Section title="Start a workflow" actions={<a href={link("machines", nodeId)}>Back to the machine</a>}>
      <ErrorNote error={library.error} />
      <form class="stack" onSubmit={submit}>
        <label>
          Graph{" "}
          <select value={name} onChange={(e) => setName((e.target as HTMLSelectElement).value)} required>
            <option value="">Choose a graph…</option>
            {(library.data?.graphs ?? []).map((candidate) => (
              <option key={candidate.injectableName} value={candidate.injectableName}>
                {candidate.injectableName} ({candidate.friendlyName})
              </option>
            ))}
          </select>
        </label>
        {graph && fields.length === 0 && <p class="muted">This graph takes no options.</p>}
        {graph &&
          [...new Set(fields.map((field) => field.label))].map((label) => (
            <fieldset key={`${name}.${label}`}>
              <legend>{label}</legend>
              {fields
                .filter((field) => field.label === label)
                .map((field) => (
                  <label key={field.key}>
                    {field.key}
                    {field.required && <span class="required"> (required)</span>}{" "}
                    <Field name={`${label}.${field.key}`} defaultValue={asText(field.initial)} required={field.required} />
                  </label>
                ))}
            </fieldset>
          ))}
        <button type="submit" disabled={!graph}>
          Start
        </button>
        <ErrorNote error={error} />
      </form>
    </Section>
  );
}
