import { useState } from "preact/hooks";
import { get, PROVISIONING, request } from "../api";
import type { RelayCredential, RelayJob, Site } from "../model";
import { ErrorNote, Section, Time, useLoad, when } from "../ui";

function SiteCard({ site }: { site: Site }) {
  const relays = useLoad(() => get<RelayCredential[]>(`${PROVISIONING}/sites/${encodeURIComponent(site.id)}/relays`), [site.id]);
  const jobs = useLoad(() => get<RelayJob[]>(`${PROVISIONING}/sites/${encodeURIComponent(site.id)}/jobs`), [site.id]);
  const [token, setToken] = useState<string>();
  const [error, setError] = useState<string>();
  const inFlight = (jobs.data ?? []).filter((job) => job.state === "queued" || job.state === "leased").length;
  const failed = (jobs.data ?? []).filter((job) => job.state === "failed").length;
  const addRelay = async () => {
    try {
      setError(undefined);
      const made = (await request<RelayCredential>("POST", `${PROVISIONING}/sites/${encodeURIComponent(site.id)}/relays`, {})).body;
      setToken(made.token);
      relays.reload();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <Section
      title={site.name}
      actions={
        <button type="button" onClick={addRelay}>
          New relay credential
        </button>
      }
    >
      <p class="muted">
        Site <span class="mono">{site.id}</span> · jobs in flight: {inFlight} · failed: {failed}
      </p>
      {token && (
        <p role="status">
          The relay's token, shown this once (the service keeps only its hash): <code class="mono">{token}</code>
        </p>
      )}
      <ErrorNote error={error ?? relays.error} />
      <table>
        <thead>
          <tr>
            <th>Relay</th>
            <th>Online</th>
            <th>Last heard from</th>
            <th>Version</th>
          </tr>
        </thead>
        <tbody>
          {(relays.data ?? []).map((relay) => (
            <tr key={relay.id}>
              <td>{relay.name}</td>
              {/* Connected: it hears of jobs at once (push, issue 56); else it polls. */}
              <td>{relay.online ? (relay.pushedAt ? "online, connected" : "online, polling") : "offline"}</td>
              <td>{relay.lastSeenAt ? <Time iso={relay.lastSeenAt} /> : "never"}</td>
              <td>{relay.relayVersion ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {failed > 0 && (
        <details>
          <summary>Failed jobs</summary>
          <ul class="plain">
            {(jobs.data ?? [])
              .filter((job) => job.state === "failed")
              .slice(0, 20)
              .map((job) => (
                <li key={job.id}>
                  {when(job.createdAt)} · node <span class="mono">{job.node}</span> · {job.result?.error}
                </li>
              ))}
          </ul>
        </details>
      )}
    </Section>
  );
}

/** The sites: their relays (online or not, last heard from, version) and their jobs in flight and failed. */
export function Sites() {
  const sites = useLoad(() => get<Site[]>(`${PROVISIONING}/sites`), []);
  const [error, setError] = useState<string>();
  const create = async (event: Event) => {
    event.preventDefault();
    const name = String(new FormData(event.target as HTMLFormElement).get("name") ?? "");
    try {
      setError(undefined);
      await request("POST", `${PROVISIONING}/sites`, { name });
      sites.reload();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <>
      <Section title="Sites">
        <form class="toolbar" onSubmit={create}>
          <label>
            New site <input name="name" required placeholder="e.g. rack-room-1" />
          </label>
          <button type="submit">Create</button>
        </form>
        <ErrorNote error={error ?? sites.error} />
        {sites.data?.length === 0 && <p class="muted">No sites yet: a site's relay drives its machines' BMCs.</p>}
      </Section>
      {(sites.data ?? []).map((site) => (
        <SiteCard key={site.id} site={site} />
      ))}
    </>
  );
}
