import { useState } from "preact/hooks";
import { get, PROVISIONING } from "../api";
import type { Timeline } from "../model";
import { ErrorNote, Section, Time, useLoad, usePolling } from "../ui";

/**
 * What the machine did and when (GET /nodes/{id}/timeline): its steps, the events it reported,
 * and the logs it uploaded, each opened in place. Read again while the workflow runs.
 */
export function MachineTimeline({ node, running, pollMs }: { node: string; running: boolean; pollMs: number }) {
  const timeline = useLoad(() => get<Timeline>(`${PROVISIONING}/nodes/${encodeURIComponent(node)}/timeline`), [node]);
  usePolling(timeline.reload, pollMs, running);
  const [open, setOpen] = useState<{ name: string; text?: string; error?: string }>();
  const show = async (name: string, path: string) => {
    setOpen({ name });
    try {
      setOpen({ name, text: await get<string>(`${PROVISIONING}/${path}`) });
    } catch (error) {
      setOpen({ name, error: (error as Error).message });
    }
  };
  const data = timeline.data;
  return (
    <Section title="What the machine did">
      <ErrorNote error={timeline.error} />
      {data && data.entries.length === 0 && <p class="muted">Nothing yet.</p>}
      {data && data.entries.length > 0 && (
        <table class="timeline">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">From</th>
              <th scope="col">What</th>
            </tr>
          </thead>
          <tbody>
            {data.entries.map((entry, index) => (
              <tr key={`${entry.at}-${index}`} class={entry.what.endsWith(" FAIL") || entry.what.startsWith("task failed") ? "error" : ""}>
                <td>
                  <Time iso={entry.at} />
                </td>
                <td>{entry.source}</td>
                <td>
                  {entry.task ? `${entry.task}: ` : ""}
                  {entry.what}
                  {entry.event?.description ? <span class="muted"> · {String(entry.event.description)}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data && data.eventsDropped > 0 && <p class="muted">{data.eventsDropped} events were not kept (the first 50 and the latest are).</p>}
      {data && data.logs.length > 0 && (
        <>
          <h3>Logs</h3>
          <ul class="logs">
            {data.logs.map((log) => (
              <li key={log.name}>
                <button type="button" class="link" onClick={() => show(log.name, log.path)}>
                  {log.name}
                </button>{" "}
                <span class="muted">
                  {log.parts} part{log.parts === 1 ? "" : "s"}, {log.bytes} bytes
                </span>
              </li>
            ))}
          </ul>
          {open && (
            <>
              <h3>{open.name}</h3>
              <ErrorNote error={open.error} />
              <section aria-label={`Log ${open.name}`}>
                {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (WCAG 2.1.1) */}
                <pre tabIndex={0} class="log">
                  {open.text ?? "Loading…"}
                </pre>
              </section>
            </>
          )}
        </>
      )}
    </Section>
  );
}
