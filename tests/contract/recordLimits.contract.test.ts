import { isDomainError } from "../../lib/errors";
import { apiContextFor } from "../../lib/provisioning/apiContext";
import { findNode } from "../../lib/provisioning/nodes/findNode";
import { createNode, patchNode } from "../../lib/provisioning/nodes/nodeService";
import { setNodeObm } from "../../lib/provisioning/obm/obmService";
import { RECORD_MAX_BYTES } from "../../lib/provisioning/recordSize";
import { getWorkflow, startWorkflow } from "../../lib/provisioning/workflows/workflowService";
import { provisioningAdapters, type Stores } from "../support/provisioningAdapters";

const now = new Date("2026-11-23T00:00:00.000Z");
const api = apiContextFor("http://x");
const big = "x".repeat(RECORD_MAX_BYTES);

/** The error kind a call fails with ("ok" when it does not). */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return "ok";
  } catch (error) {
    if (isDomainError(error)) return error.kind;
    throw error;
  }
}

/** Issue 12 §5: one limit, the same answer from both stores, and nothing stored. */
describe.each(provisioningAdapters)("record limits: %s", (_name, makeStores) => {
  let stores: Stores;
  beforeEach(async () => {
    stores = await makeStores();
  });

  it("refuses a node larger than a record may be (413), and stores nothing", async () => {
    expect(await outcome(() => createNode(stores, { name: "huge", notes: big }, now))).toBe("payload-too-large");
    expect(await stores.nodes.list()).toEqual([]);
  });

  it("keeps a node unchanged when a PATCH or an OBM setting would make it too large", async () => {
    const node = await createNode(stores, { name: "n1", identifiers: ["52:54:00:00:00:01"] }, now);
    expect(await outcome(() => patchNode(stores, node.id, async () => ({ notes: big }), now))).toBe("payload-too-large");
    const obm = { service: "noop-obm-service", config: { note: big } };
    expect(await outcome(() => setNodeObm(stores, node.id, async () => obm, now))).toBe("payload-too-large");
    expect(await findNode(stores, node.id)).toEqual(node);
  });

  it("refuses a workflow whose options make it too large, and starts nothing", async () => {
    const node = await createNode(stores, { name: "n2" }, now);
    const request = { name: "Graph.noop-example", options: { defaults: { note: big } } };
    expect(await outcome(() => startWorkflow(stores, node.id, request, api, now))).toBe("payload-too-large");
    expect(await stores.workflows.listForNode(node.id)).toEqual([]);
  });

  it("answers an id longer than any key may be as unknown (404), not as a store error", async () => {
    expect(await outcome(() => findNode(stores, "a".repeat(2048)))).toBe("not-found");
    expect(await outcome(() => getWorkflow(stores, "b".repeat(2048), now))).toBe("not-found");
  });

  it("keeps a node just under the limit", async () => {
    const node = await createNode(stores, { name: "fits", notes: "y".repeat(RECORD_MAX_BYTES - 1024) }, now);
    expect((await findNode(stores, node.id)).notes).toHaveLength(RECORD_MAX_BYTES - 1024);
  });
});
