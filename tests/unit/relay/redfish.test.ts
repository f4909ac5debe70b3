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
  it("reads the BIOS attributes, boot order and firmware inventory; sets attributes that the BMC applies at the next reset and keeps (issue 53)", async () => {
    const machine = memoryMachine();
    const bmc = await startRedfishBmc({ user: "root", password: "calvin", machine });
    try {
      const config = { uri: bmc.url, user: "root", password: "calvin", ca: bmc.ca };
      const bios = await drive(config, { kind: "inventory", what: "bios" });
      expect(JSON.parse(bios.output)).toMatchObject({
        attributes: { BootMode: "Uefi", ProcTurboMode: "Enabled", SriovGlobalEnable: false },
        attributeRegistry: "BiosAttributeRegistryP89.v1_0_0",
        pending: {},
        bootOrder: ["NIC.Slot.1-1", "Disk.Bay.0"],
        bootSourceOverride: { target: "None", enabled: "Disabled" },
      });
      const firmware = JSON.parse((await drive(config, { kind: "inventory", what: "firmware" })).output);
      expect(firmware.listed).toBe(3);
      expect(firmware.items[1]).toEqual({
        id: "BIOS",
        name: "Contoso BIOS Firmware",
        version: "P79 v1.45 (12/06/2017)",
        updateable: true,
        status: { State: "Enabled", Health: "OK" },
      });
      // Set: pending until the machine resets, then in effect, and still after another reset.
      const set = await drive(config, { kind: "biosSettings", attributes: { ProcTurboMode: "Disabled", SriovGlobalEnable: true } });
      expect(set).toEqual({ ok: true, output: "BIOS attributes ProcTurboMode, SriovGlobalEnable set for the next reset" });
      expect(bmc.bios()).toMatchObject({
        current: { ProcTurboMode: "Enabled" },
        pending: { ProcTurboMode: "Disabled", SriovGlobalEnable: true },
      });
      expect(JSON.parse((await drive(config, { kind: "inventory", what: "bios" })).output).pending).toEqual({
        ProcTurboMode: "Disabled",
        SriovGlobalEnable: true,
      });
      await drive(config, { kind: "power", action: "off" });
      expect(bmc.bios().pending).toMatchObject({ ProcTurboMode: "Disabled" });
      await drive(config, { kind: "power", action: "on" });
      await drive(config, { kind: "power", action: "reset" });
      expect(bmc.bios()).toEqual({ current: expect.objectContaining({ ProcTurboMode: "Disabled", SriovGlobalEnable: true }), pending: {} });
      // A kind of job this relay does not know (a newer service's) is refused, and nothing is done.
      expect(await drive(config, { kind: "firmwareUpdate" } as never)).toMatchObject({
        ok: false,
        error: "This relay does not know jobs of kind firmwareUpdate: update it",
      });
      // An attribute the BIOS does not have is refused by name, before the BMC is asked; a wrong type, by the BMC.
      expect(await drive(config, { kind: "biosSettings", attributes: { Overclock: "Max" } })).toMatchObject({
        ok: false,
        error: "The BIOS has no attribute Overclock (it has 7)",
      });
      expect(await drive(config, { kind: "biosSettings", attributes: { ProcCoreDisable: "two" } })).toMatchObject({
        ok: false,
        error: expect.stringMatching(/the BMC answered 400: The property ProcCoreDisable/),
      });
      expect(bmc.openSessions()).toBe(0);
    } finally {
      await bmc.close();
    }
  });
});
