import { useState } from "preact/hooks";
import { get, PROVISIONING } from "../api";
import type { ServiceEvent } from "../model";
import { ErrorNote, Section, Time, useLoad, usePolling } from "../ui";

/** What an event says in a few words: its name, and what its data adds. */
function summary(event: ServiceEvent): string {
  const data = event.data as Record<string, unknown>;
  const progress = data.progress as { description?: string; percentage?: string } | undefined;
  const failure = data.failure as { reason?: string; message?: string } | undefined;
  if (failure) return `${data.status}: ${failure.reason} (${failure.message})`;
  if (progress) return `${progress.description} · ${progress.percentage}`;
  if (typeof data.stage === "string") return `${data.stage}${data.taskName ? ` (${data.taskName})` : ""}`;
  if (typeof data.status === "string") return `${data.graphName ?? ""} ${data.status}`.trim();
  if (typeof data.error === "string") return data.error;
  return "";
}

/** How many events are shown at first, and added by each "Show earlier". */
const EVENTS_SHOWN = 25;

/**
 * The events of a machine or a workflow (GET /nodes/{id}/events, /workflows/{id}/events), as its
 * hooks receive them, in order. Read again while the workflow runs.
 */
export function EventList({ path, running, pollMs, title }: { path: string; running: boolean; pollMs: number; title: string }) {
  const events = useLoad(() => get<ServiceEvent[]>(`${PROVISIONING}/${path}`), [path]);
  usePolling(events.reload, pollMs, running);
  // The newest first come into view: a machine's life holds hundreds of events, which took most of its page.
  const [count, setCount] = useState(EVENTS_SHOWN);
  const all = events.data ?? [];
  const shown = all.slice(Math.max(0, all.length - count));
  return (
    <Section title={title}>
      <ErrorNote error={events.error} />
      {events.data && events.data.length === 0 && <p class="muted">No events yet.</p>}
      {events.data && events.data.length > 0 && (
        // A phone is narrower than the four columns: the table scrolls, the page does not.
        <div class="scroll">
          <table class="timeline" aria-label={title}>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((event) => (
                <tr key={event.id} class={event.severity === "critical" ? "error" : ""}>
                  <td>{event.sequence}</td>
                  <td>
                    <Time iso={event.createdAt} />
                  </td>
                  <td class="mono">
                    {event.type}.{event.action}
                  </td>
                  <td>{summary(event)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {shown.length < all.length && (
            <button type="button" onClick={() => setCount(count + EVENTS_SHOWN)}>
              Show earlier events ({all.length - shown.length} more)
            </button>
          )}
        </div>
      )}
    </Section>
  );
}
