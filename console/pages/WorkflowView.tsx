import { useMemo, useState } from "preact/hooks";
import { get, PROVISIONING, request } from "../api";
import { BOX, layOut } from "../dag";
import { diagnose, lastFromMachine } from "../diagnosis";
import { isFinished, type Workflow, type WorkflowTask } from "../model";
import { ErrorNote, link, Section, State, Time, useLoad, usePolling, when } from "../ui";
import { EventList } from "./Events";
import { MachineTimeline } from "./Timeline";

/** How often a running workflow is read again (see the README: polling, not server-sent events). */
const POLL_MS = 2000;

function Dag({ workflow, selected, onSelect }: { workflow: Workflow; selected?: string; onSelect: (id: string) => void }) {
  // The layout depends only on the graph's shape, not on the states, so polls do not move boxes.
  const shape = Object.entries(workflow.tasks)
    .map(([id, task]) => `${id}:${Object.keys(task.waitingOn).join(",")}`)
    .join(";");
  const placed = useMemo(() => layOut(workflow.tasks), [shape]);
  return (
    <div class="scroll">
      {/* biome-ignore lint/a11y/useSemanticElements: the drawing is SVG, which has no <fieldset> */}
      <svg
        class="dag"
        width={placed.width}
        height={placed.height}
        viewBox={`0 0 ${placed.width} ${placed.height}`}
        role="group"
        aria-label={`Tasks of ${workflow.injectableName}`}
      >
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" class="arrowhead" />
          </marker>
        </defs>
        {placed.edges.map((edge) => (
          <path
            key={`${edge.from}-${edge.to}`}
            class={`edge edge-${edge.when}`}
            d={`M ${edge.points.map((point) => `${point.x} ${point.y}`).join(" L ")}`}
            marker-end="url(#arrow)"
          >
            <title>waits for {edge.when}</title>
          </path>
        ))}
        {placed.tasks.map(({ id, x, y }) => {
          const task = workflow.tasks[id];
          return (
            // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>
            <g
              key={id}
              class={`task task-${task.state}${selected === id ? " selected" : ""}`}
              transform={`translate(${x - BOX.width / 2} ${y - BOX.height / 2})`}
              tabindex={0}
              role="button"
              aria-pressed={selected === id}
              data-label={task.label}
              data-state={task.state}
              onClick={() => onSelect(id)}
              onKeyDown={(event) => {
                if (event.key !== "Enter" && event.key !== " ") return;
                event.preventDefault();
                onSelect(id);
              }}
            >
              <rect width={BOX.width} height={BOX.height} rx="8" />
              <text x="10" y="22" class="task-label">
                {task.label.length > 24 ? `${task.label.slice(0, 23)}…` : task.label}
              </text>
              <text x="10" y="42" class="task-state">
                {task.state}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}

function TaskDetails({ task }: { task: WorkflowTask }) {
  const boots = typeof task.options.profile === "string";
  return (
    <div class="task-details">
      <h3>
        {task.label} <State state={task.state} />
      </h3>
      <p class="muted">{task.injectableName}</p>
      <dl class="facts">
        <dt>Started</dt>
        <dd>
          <Time iso={task.startedAt} />
        </dd>
        <dt>Finished</dt>
        <dd>
          <Time iso={task.finishedAt} />
        </dd>
        {boots && (
          <>
            <dt>Boot profile fetched</dt>
            <dd>
              <Time iso={task.bootedAt} />
            </dd>
            <dt>Install script fetched</dt>
            <dd>
              <Time iso={task.templateFetchedAt} />
            </dd>
            <dt>Last from the machine</dt>
            <dd>{lastFromMachine(task, when)}</dd>
          </>
        )}
        {task.error && (
          <>
            <dt>Error</dt>
            <dd class="error">{task.error}</dd>
          </>
        )}
      </dl>
      <h4>Options (as rendered; secrets redacted)</h4>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (WCAG 2.1.1) */}
      <pre tabIndex={0}>{JSON.stringify(task.options, null, 2)}</pre>
    </div>
  );
}

export function WorkflowView({ instanceId }: { instanceId: string }) {
  const workflow = useLoad(() => get<Workflow>(`${PROVISIONING}/workflows/${encodeURIComponent(instanceId)}`), [instanceId]);
  const running = workflow.data !== undefined && !isFinished(workflow.data);
  usePolling(workflow.reload, POLL_MS, running);
  const [selected, setSelected] = useState<string>();
  const [cancelError, setCancelError] = useState<string>();
  if (!workflow.data) return workflow.error ? <ErrorNote error={workflow.error} /> : <p class="muted">Loading…</p>;
  const current = workflow.data;
  const diagnosis = diagnose(current, when);
  const cancel = async () => {
    try {
      setCancelError(undefined);
      await request("DELETE", `${PROVISIONING}/nodes/${encodeURIComponent(current.node!)}/workflows/active`);
      workflow.reload();
    } catch (error) {
      setCancelError((error as Error).message);
    }
  };
  const chosen = selected ? current.tasks[selected] : undefined;
  return (
    <>
      <Section
        title={current.injectableName}
        actions={
          <span class="actions">
            <State state={current._status} />
            {running && current.node && (
              <button type="button" class="danger" onClick={cancel}>
                Cancel workflow
              </button>
            )}
          </span>
        }
      >
        <p>
          {current.node ? (
            <>
              On machine <a href={link("machines", current.node)}>{current.node}</a>
            </>
          ) : (
            "On no machine"
          )}{" "}
          · started <Time iso={current.createdAt} /> · last change <Time iso={current.updatedAt} />
          {running && <span class="muted"> · updating every {POLL_MS / 1000} s</span>}
        </p>
        <div class={`diagnosis diagnosis-${diagnosis.tone}`} role="status" aria-live="polite">
          <strong>{diagnosis.headline}</strong>
          {diagnosis.details.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
        <ErrorNote error={cancelError ?? workflow.error} />
      </Section>
      <div class="split">
        <Section title="Tasks">
          <Dag workflow={current} selected={selected} onSelect={setSelected} />
          <p class="legend muted">
            Boxes are tasks, arrows point from a task to the tasks waiting on it. Select a task (click, or Tab and Enter) for its options
            and times.
          </p>
        </Section>
        <Section title="Task">{chosen ? <TaskDetails task={chosen} /> : <p class="muted">No task selected.</p>}</Section>
      </div>
      {current.node && <MachineTimeline node={current.node} running={running} pollMs={POLL_MS} />}
      <EventList path={`workflows/${encodeURIComponent(current.instanceId)}/events`} running={running} pollMs={POLL_MS} title="Events" />
    </>
  );
}
