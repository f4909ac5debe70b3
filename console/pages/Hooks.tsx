import { useState } from "preact/hooks";
import { get, PROVISIONING, request } from "../api";
import type { Delivery, Hook, HookWithSecret } from "../model";
import { ErrorNote, Section, Time, useLoad } from "../ui";

const hookPath = (hook: Hook, suffix = "") => `${PROVISIONING}/hooks/${encodeURIComponent(hook.id)}${suffix}`;

function HookCard({ hook, onChange }: { hook: Hook; onChange: () => void }) {
  const deliveries = useLoad(() => get<Delivery[]>(hookPath(hook, "/deliveries")), [hook.id]);
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<string>();
  const act = async (run: () => Promise<void>) => {
    try {
      setError(undefined);
      await run();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  const test = () =>
    act(async () => {
      await request("POST", hookPath(hook, "/test"));
      deliveries.reload();
    });
  const rotate = () =>
    act(async () => {
      setSecret((await request<HookWithSecret>("POST", hookPath(hook, "/secret"))).body.secret);
      onChange();
    });
  const remove = () =>
    act(async () => {
      if (!confirm(`Delete the hook to ${hook.url}? Its queued deliveries are dropped.`)) return;
      await request("DELETE", hookPath(hook));
      onChange();
    });
  const enable = () =>
    act(async () => {
      await request("PATCH", hookPath(hook), { enabled: true });
      onChange();
    });
  return (
    <Section
      title={hook.name ?? hook.url}
      actions={
        <span class="actions">
          <button type="button" onClick={test}>
            Send a test
          </button>
          <button type="button" onClick={rotate}>
            Rotate secret
          </button>
          <button type="button" class="danger" onClick={remove}>
            Delete
          </button>
        </span>
      }
    >
      <p class="muted">
        <span class="mono">{hook.url}</span> · events: {hook.events.length > 0 ? hook.events.join(", ") : "every event"}
        {hook.filters.length > 0 ? ` · filters: ${JSON.stringify(hook.filters)}` : ""}
        {hook.secretRotating ? " · signed with the new and the previous secret for a day" : ""}
      </p>
      {hook.disabledAt && (
        <p class="error" role="alert">
          Disabled <Time iso={hook.disabledAt} />: {hook.disabledReason}.{" "}
          <button type="button" onClick={enable}>
            Enable again
          </button>
        </p>
      )}
      {hook.failingSince && !hook.disabledAt && (
        <p class="error">
          Every delivery has failed since <Time iso={hook.failingSince} /> (disabled after a day).
        </p>
      )}
      {secret && (
        <p role="status">
          The new signing secret, shown this once: <code class="mono">{secret}</code>
        </p>
      )}
      <ErrorNote error={error ?? deliveries.error} />
      {deliveries.data && deliveries.data.length === 0 && <p class="muted">No deliveries yet.</p>}
      {deliveries.data && deliveries.data.length > 0 && (
        <table aria-label={`Deliveries to ${hook.name ?? hook.url}`}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Attempt</th>
              <th scope="col">Answer</th>
              <th scope="col">Next attempt</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data.slice(0, 20).map((delivery) => (
              <tr key={`${delivery.eventId}-${delivery.attempt}-${delivery.at}`} class={delivery.ok ? "" : "error"}>
                <td>
                  <Time iso={delivery.at} />
                </td>
                <td class="mono">{delivery.event}</td>
                <td>{delivery.attempt}</td>
                <td>
                  {delivery.status ?? delivery.error} <span class="muted">({Math.round(delivery.durationMs)} ms)</span>
                </td>
                <td>{delivery.retryAt ? <Time iso={delivery.retryAt} /> : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

/** Web hooks (RackHD 2.0's /hooks): add one (its secret shown once), see each one's deliveries, test, rotate, delete. */
export function Hooks() {
  const hooks = useLoad(() => get<Hook[]>(`${PROVISIONING}/hooks`), []);
  const [made, setMade] = useState<HookWithSecret>();
  const [error, setError] = useState<string>();
  const add = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const events = String(form.get("events") ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean);
    try {
      setError(undefined);
      setMade(
        (
          await request<HookWithSecret>("POST", `${PROVISIONING}/hooks`, {
            url: String(form.get("url")),
            ...(events.length > 0 && { events }),
          })
        ).body,
      );
      (event.target as HTMLFormElement).reset();
      hooks.reload();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <>
      <Section title="New web hook">
        <form class="toolbar" onSubmit={add}>
          <label>
            URL <input name="url" type="url" required placeholder="where events go (an http or https URL)" />
          </label>
          <label>
            Events <input name="events" placeholder="graph.finished, node.* (empty: every event)" />
          </label>
          <button type="submit">Add</button>
        </form>
        <ErrorNote error={error} />
        {made && (
          <p role="status">
            The hook's signing secret (Standard Webhooks), shown this once: <code class="mono">{made.secret}</code>
          </p>
        )}
      </Section>
      <ErrorNote error={hooks.error} />
      {hooks.data?.length === 0 && <p class="muted">No web hooks yet.</p>}
      {(hooks.data ?? []).map((hook) => (
        <HookCard key={`${hook.id}-${hook.updatedAt}`} hook={hook} onChange={hooks.reload} />
      ))}
    </>
  );
}
