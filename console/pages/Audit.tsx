import { useState } from "preact/hooks";
import { get, PROVISIONING } from "../api";
import type { AuditRecord } from "../model";
import { ErrorNote, Section, Time, useLoad } from "../ui";

/** The query of GET /audit: the filters set, each as the API takes it. */
const auditPath = (filters: Record<string, string>) => {
  const query = new URLSearchParams(Object.entries(filters).filter(([, value]) => value.trim() !== ""));
  query.set("limit", "100");
  return `${PROVISIONING}/audit?${query}`;
};

/**
 * Who did what (issue 55): the audit trail (GET /audit), newest first. A viewer of every site may
 * read it; anyone else is told so by the API's 403.
 */
export function AuditTable({ filters, title }: { filters: Record<string, string>; title: string }) {
  const records = useLoad(() => get<AuditRecord[]>(auditPath(filters)), [JSON.stringify(filters)]);
  return (
    <Section title={title}>
      <ErrorNote error={records.error} />
      {records.data && records.data.length === 0 && <p class="muted">Nothing recorded in the week before.</p>}
      {records.data && records.data.length > 0 && (
        <div class="scroll">
          <table class="timeline" aria-label={title}>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Request</th>
                <th scope="col">Answer</th>
              </tr>
            </thead>
            <tbody>
              {records.data.map((record) => (
                <tr key={record.id} class={record.status >= 400 ? "error" : ""}>
                  <td>
                    <Time iso={record.at} />
                  </td>
                  <td>
                    {record.actor}
                    {!record.verified && <span class="muted"> (not signed in)</span>}
                    {record.token && <span class="muted mono"> token {record.token}</span>}
                  </td>
                  <td class="mono">{record.action}</td>
                  <td class="mono">
                    {record.method} {record.path}
                  </td>
                  <td>
                    {record.status}
                    {record.sourceIp && <span class="muted"> from {record.sourceIp}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

/** The trail's own page: filtered by who, machine or site. */
export function Audit() {
  const [filters, setFilters] = useState<Record<string, string>>({});
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    setFilters({ actor: String(form.get("actor")), node: String(form.get("node")), site: String(form.get("site")) });
  };
  return (
    <>
      <h2>Audit trail</h2>
      <form class="filters" onSubmit={submit} aria-label="Filter the audit trail">
        <label>
          Who <input name="actor" autoComplete="off" />
        </label>
        <label>
          Machine id <input name="node" autoComplete="off" />
        </label>
        <label>
          Site <input name="site" autoComplete="off" />
        </label>
        <button type="submit">Filter</button>
      </form>
      <AuditTable filters={filters} title="Who did what" />
    </>
  );
}
