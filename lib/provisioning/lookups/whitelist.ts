import { ValidationError } from "../../errors";
import { changeConfigRecord } from "../config/serviceConfig";
import { normalizeMac } from "../mac";
import type { StoresOf } from "../ports";

/** RackHD's DHCP whitelist (a config key), kept as one config record so every container sees the same list. */
const ID = "dhcp-whitelist";
/** Most MACs the list holds (it is one record). */
const WHITELIST_MAX = 4096;

/** RackHD's form: the MAC with `-` for `:`. */
function whitelistForm(value: string): string {
  const mac = normalizeMac(value);
  if (!mac) throw new ValidationError(`Invalid MAC address: ${value}`);
  return mac.replace(/:/g, "-");
}

const macsOf = (values: Record<string, unknown>): string[] => (Array.isArray(values.macs) ? (values.macs as string[]) : []);

/** POST /nodes/{mac}/dhcp/whitelist → 201 with the whole list (the MAC once). */
export async function addToWhitelist(stores: StoresOf<"config">, value: string, now: Date): Promise<string[]> {
  const mac = whitelistForm(value);
  const record = await changeConfigRecord(
    stores,
    ID,
    (values) => {
      const macs = macsOf(values);
      if (macs.includes(mac)) return values;
      if (macs.length >= WHITELIST_MAX) throw new ValidationError(`The DHCP whitelist holds at most ${WHITELIST_MAX} MACs`);
      return { ...values, macs: [...macs, mac] };
    },
    now,
  );
  return macsOf(record.values);
}

/** DELETE /nodes/{mac}/dhcp/whitelist → 204, also when the MAC (or the list) is not there. */
export async function removeFromWhitelist(stores: StoresOf<"config">, value: string, now: Date): Promise<void> {
  const mac = whitelistForm(value);
  await stores.config.update(ID, (record) =>
    macsOf(record.values).includes(mac)
      ? { ...record, values: { ...record.values, macs: macsOf(record.values).filter((m) => m !== mac) }, updatedAt: now.toISOString() }
      : record,
  );
}
