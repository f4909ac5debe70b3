import type { MediaLibrary } from "../virtualMedia";
import type { Driver } from "./driver";
import { ipmitoolDriver } from "./ipmitool";
import { redfishDriver } from "./redfish";

/** The driver of each OBM service a relay drives; `media`, where the relay serves boot files, builds virtual media images. */
export const defaultDrivers = (media?: MediaLibrary): Record<string, Driver> => ({
  "ipmi-obm-service": ipmitoolDriver(),
  "redfish-obm-service": redfishDriver({ media }),
});
