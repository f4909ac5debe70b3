import type { Node } from "../nodes/node";
import { assertServicesSupported, type ObmSetting, upsertObmSettings } from "../obmServices/obmSetting";
import type { StoresOf } from "../ports";
import { assertRecordFits } from "../recordSize";

/**
 * The settings upserted on the node, one per service, in one atomic update of the node: 400 for a
 * service its type does not support, 413 past a record's size. Undefined when the node is gone.
 * A leaf use case (it finds no node), so that effects and the OBM routes can both call it.
 */
export function writeObmSettings(
  stores: StoresOf<"nodes">,
  node: Node,
  settings: readonly ObmSetting[],
  now: Date,
): Promise<Node | undefined> {
  return stores.nodes.update(
    node.id,
    (current) => {
      assertServicesSupported(settings, current);
      // An operator's setting ends a conflict discovery recorded (ipmiSettings.ts).
      const { obmConflict: _ended, ...rest } = current;
      const next = { ...rest, obmSettings: upsertObmSettings(current.obmSettings, settings), updatedAt: now.toISOString() };
      assertRecordFits(next, "node");
      return next;
    },
    node,
  );
}
