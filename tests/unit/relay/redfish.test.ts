import { type RedfishMachine, startRedfishBmc } from "../../../lab/redfishBmc";
import { redfishDriver } from "../../../relay/drivers/redfish";

jest.setTimeout(30_000);

/**
 * The Redfish driver's vendor quirks, in the fast tier (issue 51): the driver against the tests'
 * Redfish stand-in over real HTTPS, its chassis a machine held in memory (the e2e tier's stand-in
 * powers a QEMU machine: tests/e2e/relayRedfish.e2e.test.ts).
 */
function memoryMachine(): RedfishMachine & { resets: string[] } {
  let on = false;
  const resets: string[] = [];
  return {
    resets,
    running: () => on,
    reset: async (type) => {
      resets.push(type);
      on = !["ForceOff", "GracefulShutdown"].includes(type);
    },
    stop: async () => {
      on = false;
    },
  };
}

const drive = redfishDriver({ pollMs: 20, waitMs: 5_000, timeoutMs: 5_000 });

describe("the Redfish driver's vendor quirks", () => {
  it("boots once from PXE in UEFI mode, and again without the mode where the BMC refuses one (as bmclib does)", async () => {
    const bmc = await startRedfishBmc({ user: "root", password: "calvin", rejectBootMode: true, machine: memoryMachine() });
    try {
      const config = { uri: bmc.url, user: "root", password: "calvin", ca: bmc.ca };
      const result = await drive(config, { kind: "bootDevice", device: "pxe", uefi: true, persistent: false });
      expect(result).toMatchObject({ ok: true, output: expect.stringMatching(/^Boot once from Pxe \(the BMC refused a boot mode: /) });
      expect(bmc.system().Boot).toMatchObject({ BootSourceOverrideTarget: "Pxe", BootSourceOverrideEnabled: "Once" });
      expect(bmc.openSessions()).toBe(0);
    } finally {
      await bmc.close();
    }
  });

  it("reboots a BMC that lists no ResetTypes and has no ForceRestart or PowerCycle: ForceOff, then On, following its task monitors", async () => {
    const machine = memoryMachine();
    const bmc = await startRedfishBmc({
      user: "root",
      password: "calvin",
      listsResetTypes: false,
      resetTypes: ["On", "ForceOff", "GracefulShutdown"],
      taskMonitor: true,
      machine,
    });
    try {
      const config = { uri: bmc.url, user: "root", password: "calvin", ca: bmc.ca };
      expect(await drive(config, { kind: "power", action: "on" })).toEqual({ ok: true, output: "ResetType On" });
      expect(await drive(config, { kind: "power", action: "reboot" })).toEqual({
        ok: true,
        output: "ResetType ForceOff then On (the BMC refused ForceRestart, PowerCycle)",
      });
      expect(machine.resets).toEqual(["On", "ForceOff", "On"]);
      expect(bmc.requests.some((call) => call.startsWith("GET /redfish/v1/TaskService/Tasks/"))).toBe(true);
    } finally {
      await bmc.close();
    }
  });

  it("takes the first way a BMC lists as allowed, and says so when it allows none", async () => {
    const machine = memoryMachine();
    const bmc = await startRedfishBmc({ user: "root", password: "calvin", resetTypes: ["On", "ForceOff", "PowerCycle"], machine });
    try {
      const config = { uri: bmc.url, user: "root", password: "calvin", ca: bmc.ca };
      await drive(config, { kind: "power", action: "on" });
      expect(await drive(config, { kind: "power", action: "reset" })).toEqual({ ok: true, output: "ResetType PowerCycle" });
      expect(await drive(config, { kind: "power", action: "soft" })).toMatchObject({
        ok: false,
        error: expect.stringMatching(/allows none of its ways/),
      });
    } finally {
      await bmc.close();
    }
  });

  it("drives a BMC with no free session by Basic credentials, and refuses a setting with no uri", async () => {
    const bmc = await startRedfishBmc({ user: "root", password: "calvin", sessionLimit: 0, machine: memoryMachine() });
    try {
      const config = { uri: bmc.url, user: "root", password: "calvin", ca: bmc.ca };
      expect(await drive(config, { kind: "power", action: "status" })).toEqual({ ok: true, output: "PowerState: Off" });
      expect(await drive({}, { kind: "power", action: "status" })).toEqual({
        ok: false,
        output: "",
        error: "The Redfish OBM setting has no uri",
      });
    } finally {
      await bmc.close();
    }
  });
});
