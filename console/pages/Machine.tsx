import { useState } from "preact/hooks";
import { get, getAll, PROVISIONING, request } from "../api";
import type { Catalog, Lookup, MachineNode, NetworkPlan, ObmService, Workflow } from "../model";
import { ErrorNote, Field, link, Section, State, Time, useLoad, when } from "../ui";
import { AuditTable } from "./Audit";
import { EventList } from "./Events";
import { Lifecycle } from "./Lifecycle";
import { Power } from "./Power";

/** What the microkernel read of the machine's Secure Boot (its `secure-boot` catalog), in words. */
const SECURE_BOOT: Record<string, string> = { enabled: "on", disabled: "off", unsupported: "not offered by its firmware" };

const api = (nodeId: string, suffix = "") => `${PROVISIONING}/nodes/${encodeURIComponent(nodeId)}${suffix}`;

function Catalogs({ nodeId }: { nodeId: string }) {
  const catalogs = useLoad(() => get<Catalog[]>(api(nodeId, "/catalogs")), [nodeId]);
  const [query, setQuery] = useState("");
  // The latest catalog of each source (the list holds every version).
  const latest = new Map<string, Catalog>();
  for (const catalog of catalogs.data ?? []) latest.set(catalog.source, catalog);
  const needle = query.trim().toLowerCase();
  return (
    <Section title="Catalogs">
      <label class="toolbar">
        Search the catalogs{" "}
        <input
          type="search"
          value={query}
          placeholder="e.g. Product Name"
          onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
        />
      </label>
      <ErrorNote error={catalogs.error} />
      {latest.size === 0 && <p class="muted">{catalogs.data ? "No catalogs: the machine has not been discovered." : "Loading…"}</p>}
      {[...latest.values()].map((catalog) => {
        const lines = JSON.stringify(catalog.data, null, 2).split("\n");
        const matching = needle ? lines.filter((line) => line.toLowerCase().includes(needle)) : lines;
        if (needle && matching.length === 0) return null;
        return (
          <details key={catalog.source} open={needle !== ""}>
            <summary>
              <strong>{catalog.source}</strong> <span class="muted">· {when(catalog.createdAt)}</span>
              {needle && <span class="muted"> · {matching.length} matching lines</span>}
            </summary>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (WCAG 2.1.1) */}
            <pre tabIndex={0}>{matching.join("\n")}</pre>
          </details>
        );
      })}
    </Section>
  );
}

/**
 * The node's network plan against what its installed system reported (issue 54): each planned
 * interface with the address given it, and each difference, said as an alert. docs/network.md.
 */
function PlannedNetwork({ nodeId }: { nodeId: string }) {
  const plan = useLoad(() => get<NetworkPlan>(api(nodeId, "/network")), [nodeId]);
  if (plan.error) return <ErrorNote error={plan.error} />;
  if (!plan.data) return null;
  const { interfaces, given, differences, missingMacs } = plan.data;
  if (interfaces.length === 0) return <p class="muted">No network plan: its install configures every NIC by DHCP.</p>;
  return (
    <>
      <p class="muted">Planned (docs/network.md):</p>
      <ul>
        {interfaces.map((iface) => (
          <li key={iface.name} class="mono">
            {iface.name} (
            {iface.type === "ethernet"
              ? iface.mac
              : iface.type === "bond"
                ? `${iface.mode} of ${iface.members?.join(", ")}`
                : `VLAN ${iface.vlan} on ${iface.link}`}
            ){" → "}
            {given.find((address) => address.interface === iface.name)?.address ?? iface.address ?? "no address"}
          </li>
        ))}
      </ul>
      {missingMacs.length > 0 && (
        <p role="alert">The machine has no {missingMacs.join(", ")}: its deploy is refused until the plan or the machine is fixed.</p>
      )}
      {differences.length > 0 ? (
        <div role="alert">
          <p>The installed system is not as planned:</p>
          <ul>
            {differences.map((line) => (
              <li key={line} class="mono">
                {line}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        plan.data.seen && <p class="muted">Its installed system came up as planned.</p>
      )}
    </>
  );
}

function ObmForm({ node, onSaved }: { node: MachineNode; onSaved: () => void }) {
  const library = useLoad(() => getAll<ObmService>(`${PROVISIONING}/obms/library`), []);
  const [service, setService] = useState(node.obmSettings[0]?.service ?? "noop-obm-service");
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const entry = library.data?.find((candidate) => candidate.service === service);
  /** The stored setting of the chosen service: the form shows its values (issue 50: it showed the defaults), its secrets never. */
  const stored: Record<string, unknown> = node.obmSettings.find((setting) => setting.service === service)?.config ?? {};
  const shown = (key: string): string | undefined => {
    const value = stored[key];
    return value === undefined || value === "REDACTED" || typeof value === "object" ? undefined : String(value);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const config: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(entry?.config ?? {})) {
      const value = String(form.get(key) ?? "");
      // A secret left blank keeps the stored one (the service keeps a "REDACTED" value's secret).
      if (value === "" && stored[key] === "REDACTED") config[key] = "REDACTED";
      if (value === "") continue;
      config[key] = field.type === "integer" ? Number(value) : field.type === "boolean" ? value === "true" : value;
    }
    try {
      setError(undefined);
      await request("POST", api(node.id, "/obm"), { service, config });
      setSaved(true);
      onSaved();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <form class="stack" onSubmit={submit}>
      <label>
        OBM service{" "}
        <select
          value={service}
          onChange={(e) => {
            setService((e.target as HTMLSelectElement).value);
            setSaved(false);
          }}
        >
          {(library.data ?? [{ service, config: {} }]).map((option) => (
            <option key={option.service} value={option.service}>
              {option.service}
            </option>
          ))}
        </select>
      </label>
      {Object.entries(entry?.config ?? {}).map(([key, field]) => (
        <label key={`${service}.${key}`}>
          {key}{" "}
          <Field
            name={key}
            defaultValue={shown(key)}
            placeholder={
              stored[key] === "REDACTED"
                ? "stored (not shown): leave blank to keep"
                : field.default === undefined
                  ? ""
                  : String(field.default)
            }
          />
        </label>
      ))}
      <button type="submit">Save OBM setting</button>
      {saved && <span role="status">Saved.</span>}
      <ErrorNote error={error} />
    </form>
  );
}

export function Machine({ nodeId }: { nodeId: string }) {
  const node = useLoad(() => get<MachineNode>(api(nodeId)), [nodeId]);
  const workflows = useLoad(() => get<Workflow[]>(api(nodeId, "/workflows")), [nodeId]);
  const lookups = useLoad(() => get<Lookup[]>(`${PROVISIONING}/lookups?q=${encodeURIComponent(nodeId)}`), [nodeId]);
  if (node.error) return <ErrorNote error={node.error} />;
  if (!node.data) return <p class="muted">Loading…</p>;
  const machine = node.data;
  const history = [...(workflows.data ?? [])].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return (
    <>
      <Section
        title={machine.name}
        actions={
          <a class="button" href={link("machines", machine.id, "start")}>
            Start a workflow
          </a>
        }
      >
        <dl class="facts">
          <dt>State</dt>
          <dd>
            <State state={machine.provisionState} />
            {machine.provisioning?.lastError && (
              <span class="error">
                {" "}
                {machine.provisioning.lastError.action} failed at {machine.provisioning.lastError.task}:{" "}
                {machine.provisioning.lastError.message} (<Time iso={machine.provisioning.lastError.at} />)
              </span>
            )}
          </dd>
          <dt>Address</dt>
          <dd class="mono">
            {machine.addresses?.nics.flatMap((nic) => nic.addresses)[0] ?? <span class="muted">— (see Addresses below)</span>}
          </dd>
          <dt>Owner</dt>
          <dd>
            {machine.provisioning?.owner ?? "—"}
            {machine.provisioning?.purpose && <span class="muted"> · {machine.provisioning.purpose}</span>}
          </dd>
          <dt>Power</dt>
          <dd>
            {machine.power ? (
              <>
                <State state={`power ${machine.power.state}`} />{" "}
                <span class="muted">
                  (read <Time iso={machine.power.readAt} />)
                </span>
              </>
            ) : (
              "unknown"
            )}
          </dd>
          <dt>Site</dt>
          <dd>{machine.site ?? "none"}</dd>
          <dt>Id</dt>
          <dd class="mono">{machine.id}</dd>
          <dt>MACs</dt>
          <dd class="mono">{machine.identifiers.join(", ")}</dd>
          <dt>Type</dt>
          <dd>{machine.type}</dd>
          <dt>SKU</dt>
          <dd>{machine.sku ?? "—"}</dd>
          <dt>Tags</dt>
          <dd>{machine.tags.join(", ") || "—"}</dd>
          <dt>Secure Boot</dt>
          <dd>
            {machine.secureBoot ? (
              <>
                {SECURE_BOOT[machine.secureBoot.state]} (its firmware, <Time iso={machine.secureBoot.reportedAt} />)
              </>
            ) : (
              "— (not discovered yet)"
            )}
          </dd>
          <dt>UEFI loader</dt>
          <dd>
            {machine.bootLoader === "grub"
              ? "GRUB (Debian's signed shim and GRUB)"
              : machine.bootLoader === "ipxe"
                ? "iPXE"
                : machine.secureBoot?.state === "enabled"
                  ? "GRUB (its firmware has Secure Boot on)"
                  : "the site's default (UEFI_LOADER)"}
          </dd>
          <dt>Boots by</dt>
          <dd>
            {machine.virtualMedia
              ? `virtual media, through its Redfish BMC (${machine.virtualMedia.address ? `static ${machine.virtualMedia.address}${machine.virtualMedia.gateway ? ` via ${machine.virtualMedia.gateway}` : ""}` : "DHCP"})`
              : "the network (PXE)"}
          </dd>
          <dt>Created</dt>
          <dd>
            <Time iso={machine.createdAt} />
          </dd>
        </dl>
      </Section>
      <Lifecycle machine={machine} onChange={node.reload} />
      <Power machine={machine} onChange={node.reload} />
      <Section title="Workflows">
        <ErrorNote error={workflows.error} />
        {history.length === 0 ? (
          <p class="muted">None yet.</p>
        ) : (
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Graph</th>
                  <th scope="col">State</th>
                  <th scope="col">Started</th>
                  <th scope="col">Last change</th>
                </tr>
              </thead>
              <tbody>
                {history.map((workflow) => (
                  <tr key={workflow.instanceId}>
                    <td>
                      <a href={link("workflows", workflow.instanceId)}>{workflow.injectableName}</a>
                    </td>
                    <td>
                      <State state={workflow._status} />
                    </td>
                    <td>
                      <Time iso={workflow.createdAt} />
                    </td>
                    <td>
                      <Time iso={workflow.updatedAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
      <Section title="OBM setting">
        <p class="muted">Now: {machine.obmSettings.map((setting) => setting.service).join(", ") || "none"} (secrets are never shown).</p>
        <ObmForm node={machine} onSaved={node.reload} />
      </Section>
      <Section title="Addresses (how to reach it)">
        <PlannedNetwork nodeId={machine.id} />
        {machine.addresses ? (
          <>
            <p class="muted">
              As its installed system reported them, <Time iso={machine.addresses.reportedAt} />:
            </p>
            <ul>
              {machine.addresses.nics.map((nic) => (
                <li key={nic.mac} class="mono">
                  {nic.name} ({nic.mac}) → {nic.addresses.join(", ") || "no address"}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p class="muted">Its installed system has not reported its addresses (it reports them on its first boot).</p>
        )}
        <ErrorNote error={lookups.error} />
        {(lookups.data ?? []).length === 0 ? (
          <p class="muted">No lookups recorded.</p>
        ) : (
          <>
            <p class="muted">Lookups: the address each MAC was last seen at (a boot's DHCP lease, or the installed system's report):</p>
            <ul>
              {lookups.data!.map((lookup) => (
                <li key={lookup.id} class="mono">
                  {lookup.macAddress} → {lookup.ipAddress ?? "no IP yet"}{" "}
                  <span class="muted">
                    (<Time iso={lookup.updatedAt} />)
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </Section>
      <EventList path={`nodes/${encodeURIComponent(machine.id)}/events`} running={false} pollMs={0} title="Events" />
      <AuditTable filters={{ node: machine.id }} title="Who did what to it" />
      <Catalogs nodeId={machine.id} />
    </>
  );
}
