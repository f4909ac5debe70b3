import { useState } from "preact/hooks";
import { get, PROVISIONING, request } from "../api";
import type { MachineNode, RelayJob } from "../model";
import { ErrorNote, link, Section, State, Time, usePolling } from "../ui";

/** What each button asks the relay, and what the confirmation says. */
const ACTIONS: { label: string; body: object; confirm: string }[] = [
  { label: "Power on", body: { action: "on" }, confirm: "Power the machine on?" },
  { label: "Power off", body: { action: "off" }, confirm: "Power the machine off now (no clean shutdown)?" },
  { label: "Reboot", body: { action: "reboot" }, confirm: "Reboot the machine (a reset if it is on)?" },
  { label: "Read power state", body: { action: "status" }, confirm: "" },
  { label: "Identify on", body: { identify: true }, confirm: "" },
  { label: "Identify off", body: { identify: false }, confirm: "" },
];

const describe = (job: RelayJob): string =>
  job.action.kind === "power"
    ? `power ${job.action.action}`
    : job.action.kind === "identify"
      ? `identify ${job.action.on ? "on" : "off"}`
      : `boot once from ${job.action.device}`;

/**
 * A machine's BMC through its site's relay: its power state (and when a relay read it), power
 * actions and identify, each confirmed first, and the jobs they made with what the BMC answered.
 * "Reboot into PXE" is two jobs: a one-time PXE boot, then a reboot.
 */
export function Power({ machine, onChange }: { machine: MachineNode; onChange: () => void }) {
  const [error, setError] = useState<string>();
  const [jobs, setJobs] = useState<RelayJob[]>([]);
  const drivable = machine.obmSettings.some(
    (setting) => setting.service === "ipmi-obm-service" || setting.service === "redfish-obm-service",
  );
  const pending = jobs.some((job) => job.state === "queued" || job.state === "leased");
  usePolling(
    () => {
      if (!machine.site) return;
      void get<RelayJob[]>(`${PROVISIONING}/sites/${encodeURIComponent(machine.site)}/jobs`).then((all) => {
        setJobs(all.filter((job) => job.node === machine.id).slice(0, 5));
        if (!all.some((job) => job.node === machine.id && (job.state === "queued" || job.state === "leased"))) onChange();
      });
    },
    1_000,
    pending,
  );
  if (!machine.site || !drivable) {
    return (
      <Section title="Power">
        <p class="muted">
          {machine.site
            ? "Give it an IPMI or Redfish OBM setting: a relay of its site drives only those."
            : "It belongs to no site: a relay of its site drives its BMC."}{" "}
          <a href={link("sites")}>Sites</a>
        </p>
      </Section>
    );
  }
  const act = async (body: object, question: string) => {
    if (question && !confirm(question)) return;
    try {
      setError(undefined);
      const made = (await request<RelayJob>("POST", `${PROVISIONING}/nodes/${encodeURIComponent(machine.id)}/power`, body)).body;
      setJobs((current) => [made, ...current].slice(0, 5));
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  const rebootIntoPxe = async () => {
    if (!confirm("Boot the machine once from the network (PXE), and reboot it now?")) return;
    await act({ device: "pxe" }, "");
    await act({ action: "reboot" }, "");
  };
  return (
    <Section title="Power">
      <p>
        Power: <strong>{machine.power?.state ?? "unknown"}</strong>
        {machine.power && (
          <span class="muted">
            {" "}
            · read <Time iso={machine.power.readAt} />
          </span>
        )}
      </p>
      <div class="toolbar">
        {ACTIONS.map((action) => (
          <button key={action.label} type="button" onClick={() => act(action.body, action.confirm)}>
            {action.label}
          </button>
        ))}
        <button type="button" onClick={rebootIntoPxe}>
          Reboot into PXE
        </button>
      </div>
      <ErrorNote error={error} />
      {jobs.length > 0 && (
        <ul class="plain" aria-label="Recent power jobs">
          {jobs.map((job) => (
            <li key={job.id}>
              <State state={job.state} /> {describe(job)} <span class="muted">· {job.requestedBy}</span>
              {job.result && <span class="mono"> · {job.result.ok ? job.result.output : job.result.error}</span>}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
