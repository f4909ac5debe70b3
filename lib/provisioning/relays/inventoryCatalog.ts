import { isDomainError } from "../../errors";
import { newCatalogs } from "../catalogs/catalog";
import type { StoresOf } from "../ports";
import { assertRecordFits } from "../recordSize";
import { describeAction, type RelayJob } from "./job";

/**
 * A Redfish read's result as the node's catalog (issue 53): `redfish-bios` (the attributes, their
 * registry, what is pending for the next reset, the boot order) or `redfish-firmware` (the firmware
 * inventory), the relay's JSON as its data. Answers why it could not be kept (not JSON, larger than
 * a record), which fails the task that asked; undefined once it is stored.
 */
export async function catalogueInventory(stores: StoresOf<"catalogs">, job: RelayJob, now: Date): Promise<string | undefined> {
  if (job.action.kind !== "inventory") return undefined;
  const source = `redfish-${job.action.what}`;
  let data: unknown;
  try {
    data = JSON.parse(job.result?.output ?? "");
  } catch {
    return `The relay's answer to ${describeAction(job.action)} is not JSON`;
  }
  const [catalog] = newCatalogs(job.node, [{ source, data }], now);
  try {
    assertRecordFits(catalog, "catalog");
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return `${source}: ${error.message}`;
  }
  await stores.catalogs.add([catalog]);
  return undefined;
}
