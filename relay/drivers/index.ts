import type { Driver } from "./driver";
import { ipmitoolDriver } from "./ipmitool";
import { redfishDriver } from "./redfish";

/** The driver of each OBM service a relay drives. */
export const defaultDrivers = (): Record<string, Driver> => ({
  "ipmi-obm-service": ipmitoolDriver(),
  "redfish-obm-service": redfishDriver(),
});
