import { isDomainError, ValidationError } from "../../errors";
import { normalizeMac } from "../mac";
import type { ProvisioningStores } from "../ports";

/** RackHD's DHCP whitelist (a config key), kept as one record so every container sees the same list. */
export interface WhitelistRecord {
  id: "dhcp-whitelist";
  macs: string[];
  createdAt: string;
  updatedAt: string;
}

const ID = "dhcp-whitelist";
/** Most MACs the list holds (it is one record). */
const WHITELIST_MAX = 4096;

/** RackHD's form: the MAC with `-` for `:`. */
function whitelistForm(value: string): string {
  const mac = normalizeMac(value);
  if (!mac) throw new ValidationError(`Invalid MAC address: ${value}`);
  return mac.replace(/:/g, "-");
}

/** POST /nodes/{mac}/dhcp/whitelist → 201 with the whole list (the MAC once). */
export async function addToWhitelist(stores: ProvisioningStores, value: string, now: Date): Promise<string[]> {
  const mac = whitelistForm(value);
  const stamp = now.toISOString();
  const add = (record: WhitelistRecord): WhitelistRecord => {
    if (record.macs.includes(mac)) return record;
    if (record.macs.length >= WHITELIST_MAX) throw new ValidationError(`The DHCP whitelist holds at most ${WHITELIST_MAX} MACs`);
    return { ...record, macs: [...record.macs, mac], updatedAt: stamp };
  };
  const updated = await stores.config.update(ID, add);
  if (updated) return updated.macs;
  try {
    return (await stores.config.create({ id: ID, macs: [mac], createdAt: stamp, updatedAt: stamp })).macs;
  } catch (error) {
    // Another request created the list first: add to it.
    if (!(isDomainError(error) && error.kind === "conflict")) throw error;
    return (await stores.config.update(ID, add))!.macs;
  }
}

/** DELETE /nodes/{mac}/dhcp/whitelist → 204, also when the MAC (or the list) is not there. */
export async function removeFromWhitelist(stores: ProvisioningStores, value: string, now: Date): Promise<void> {
  const mac = whitelistForm(value);
  await stores.config.update(ID, (record) =>
    record.macs.includes(mac) ? { ...record, macs: record.macs.filter((m) => m !== mac), updatedAt: now.toISOString() } : record,
  );
}
