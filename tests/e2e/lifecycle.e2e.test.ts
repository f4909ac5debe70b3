import { simulateBoot } from "../../scripts/nodeSimulator";
import { http, type OfflineServer, startOffline } from "../support/offlineServer";

jest.setTimeout(240_000);
const JSON_TYPE = { "content-type": "application/json" };
const MAC = "52:54:00:53:e2:01";
const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIqhaCM3AvlYu1XQkD41LSEghpaT8Bd8IEp05HZamafT ops@lab";

/**
 * A machine's whole life over real HTTP against `serverless offline` (issue 53; in both stores: the
 * e2e-dynamodb tier runs this file on DynamoDB Local), the simulator playing the machine, its
 * installer and its microkernel: discovered, ready, allocated, deployed, rescued and back,
 * redeployed, released with its erase report, retired, provided again; each step's state in the
 * node's answer and the list's filter, each change an event, and the refusals a client meets.
 */
describe("a machine's life over HTTP: every action, against serverless offline", () => {
  let server: OfflineServer;
  const call = (method: string, path: string, body?: unknown) =>
    http(server.baseUrl, method, `/api/1.1${path}`, {
      headers: body === undefined ? {} : JSON_TYPE,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const act = async (action: string, options?: unknown, status = 202) => {
    const answer = await call("POST", `/nodes/${MAC}/actions`, { action, ...(options !== undefined && { options }) });
    expect({ action, status: answer.status, body: answer.status === status ? "" : answer.body }).toEqual({ action, status, body: "" });
    return answer.body;
  };
  const state = async () => (await call("GET", `/nodes/${MAC}`)).body.provisionState as string;
  /** The machine boots (the simulator): the microkernel or the installer, whichever its workflow serves. */
  const boot = () => simulateBoot({ server: server.baseUrl, macs: [MAC], pollMs: 100 });

  beforeAll(async () => {
    server = await startOffline({ DEMO_NODES: "off" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("walks discovered → ready → allocated → deployed → rescue → deployed → (redeploy) → ready → retired → ready", async () => {
    expect((await boot()).outcome).toBe("discovered");
    expect(await state()).toBe("discovered");
    await act("provide", undefined, 409); // no OBM setting yet: a 409 that says so
    await call("POST", `/nodes/${MAC}/obm`, { service: "noop-obm-service", config: {} });
    await act("provide");
    expect(await state()).toBe("ready");
    await act("allocate", { owner: "team-a", purpose: "e2e" });
    expect((await call("GET", "/nodes?provisionState=allocated")).body.map((node: { name: string }) => node.name)).toEqual([MAC]);

    const install = { "install-os": { version: "7.0", repo: "{{api.server}}/Centos/7.0", rootPassword: "root" } };
    await act("deploy", { graph: "Graph.InstallCentOS", options: install });
    expect(await state()).toBe("deploying");
    // A workflow started directly is refused while the action's runs (RackHD's words).
    expect((await call("POST", `/nodes/${MAC}/workflows`, { name: "Graph.noop-example" })).status).toBe(400);
    expect((await boot()).outcome).toBe("installed");
    expect(await state()).toBe("deployed");

    await act("rescue", { sshKey: KEY });
    expect(await state()).toBe("rescuing");
    await boot();
    expect(await state()).toBe("rescue");
    await act("unrescue");
    expect(await state()).toBe("deployed");

    // The deploy's root password was never kept: redeploy asks for the options again.
    expect((await act("redeploy", undefined, 400)).message).toMatch(/held secrets/);
    await act("redeploy", { options: install });
    expect((await boot()).outcome).toBe("installed");
    expect(await state()).toBe("deployed");

    await act("release", { erase: "full" });
    expect(await state()).toBe("releasing");
    await boot();
    const released = (await call("GET", `/nodes/${MAC}`)).body;
    expect(released.provisionState).toBe("ready");
    expect(released.provisioning).not.toHaveProperty("owner");
    expect((await call("GET", `/nodes/${MAC}/catalogs/erase`)).body.data).toEqual([
      expect.objectContaining({ mode: "full", result: "erased" }),
    ]);
    const timeline = (await call("GET", `/nodes/${MAC}/timeline`)).body;
    expect(timeline.entries.map((entry: { what: string }) => entry.what)).toContainEqual(
      expect.stringMatching(/^erased \/dev\/sda \(full, simulated\)/),
    );

    await act("retire");
    expect(await state()).toBe("retired");
    await act("deploy", { graph: "Graph.InstallCentOS", options: install }, 409);
    await act("provide");
    expect(await state()).toBe("ready");

    const events = (await call("GET", `/nodes/${MAC}/events?limit=500`)).body as { type: string; action: string; data: { to: string } }[];
    const states = events.filter((event) => `${event.type}.${event.action}` === "node.state.changed").map((event) => event.data.to);
    expect(states).toEqual([
      ...["providing", "ready", "allocating", "allocated", "deploying", "deployed", "rescuing", "rescue", "unrescuing", "deployed"],
      ...["deploying", "deployed", "releasing", "ready", "retiring", "retired", "providing", "ready"],
    ]);
  });
});
