import { apiContextFor } from "../../lib/provisioning/apiContext";
import { newCatalogs } from "../../lib/provisioning/catalogs/catalog";
import { acceptResults, nextCommands } from "../../lib/provisioning/discovery/microkernel";
import { type Actor, performAction } from "../../lib/provisioning/lifecycle/actionService";
import { createNode } from "../../lib/provisioning/nodes/nodeService";
import { provisioningAdapters as adapters, type Stores } from "../support/provisioningAdapters";

/** An administrator of every site: may take any action on any machine, whoever holds it. */
const ADMIN: Actor = { name: "anonymous", memberOf: [], administers: () => true };

/**
 * A node's life-cycle actions (issue 53) on both stores: the conditional write that lets one action
 * of two started side by side run (the other a 409), and a release from its first step to `ready`
 * through the microkernel's commands, its events written with each change.
 */
const api = apiContextFor("http://10.0.0.1:9080");
const settings = { releaseErase: "quick" as const };
let clock = Date.parse("2026-11-28T07:00:00.000Z");
const tick = (): Date => {
  clock += 1000;
  return new Date(clock);
};

async function readyNode(stores: Stores, mac: string) {
  const node = await createNode(
    stores,
    { name: mac, identifiers: [mac], obmSettings: [{ service: "noop-obm-service", config: {} }] },
    tick(),
  );
  await stores.catalogs.add(newCatalogs(node.id, [{ source: "dmi", data: {} }], tick()));
  await performAction(stores, node.id, { action: "provide" }, api, settings, ADMIN, tick());
  return node;
}

describe.each(adapters)("life-cycle actions: %s", (_name, makeStores) => {
  let stores: Stores;
  beforeEach(async () => {
    stores = await makeStores();
  });

  it("runs one of eight actions started side by side on one node; the others are 409s and the node ends where the one took it", async () => {
    const node = await readyNode(stores, "52:54:00:53:10:01");
    const at = tick();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        performAction(
          stores,
          node.id,
          i % 2 === 0 ? { action: "retire" } : { action: "allocate", options: { owner: `o${i}` } },
          api,
          settings,
          ADMIN,
          at,
        ),
      ),
    );
    const won = outcomes.filter((outcome) => outcome.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const outcome of outcomes.filter((each) => each.status === "rejected")) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ kind: "conflict" });
    }
    const stored = await stores.nodes.get(node.id);
    expect(stored?.provisionState).toBe((won[0] as PromiseFulfilledResult<{ node: { provisionState: string } }>).value.node.provisionState);
    expect((await stores.workflows.listForNode(node.id)).filter((workflow) => workflow.lifecycle?.action !== "provide")).toHaveLength(1);
  });

  it("releases through the microkernel's erase to ready, each change of state an event of the node", async () => {
    const node = await readyNode(stores, "52:54:00:53:10:02");
    await performAction(stores, node.id, { action: "allocate", options: { owner: "a" } }, api, settings, ADMIN, tick());
    const { workflow } = await performAction(stores, node.id, { action: "release" }, api, settings, ADMIN, tick());
    const caller = { token: workflow.bootToken, requireToken: true };
    for (let round = 0; round < 5; round += 1) {
      const set = await nextCommands(stores, node.id, caller, tick());
      if (!set) break;
      await acceptResults(
        stores,
        node.id,
        set.tasks.map((task) => ({ cmd: task.cmd, stdout: "[]", stderr: "" })),
        caller,
        tick(),
      );
    }
    expect((await stores.nodes.get(node.id))?.provisionState).toBe("ready");
    const events = (await stores.events.list(node.id, { limit: 100 }))
      .filter((event) => `${event.type}.${event.action}` === "node.state.changed")
      .map((event) => `${event.data.from}→${event.data.to}`);
    expect(events).toEqual([
      "discovered→providing",
      "providing→ready",
      "ready→allocating",
      "allocating→allocated",
      "allocated→releasing",
      "releasing→ready",
    ]);
  });
});
