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
      // An attribute the BIOS does not have, or a value its attribute registry does not take, is refused
      // by name, with what it takes, before the BMC is asked.
      const patches = () => bmc.requests.filter((call) => call.startsWith("PATCH")).length;
      const before = patches();
      expect(await drive(config, { kind: "biosSettings", attributes: { Overclock: "Max" } })).toMatchObject({
        ok: false,
        error: "The BIOS has no attribute Overclock (it has 7)",
      });
      expect(await drive(config, { kind: "biosSettings", attributes: { ProcCoreDisable: "two", EmbeddedSata: "Nvme" } })).toMatchObject({
        ok: false,
        error:
          "The BIOS attribute registry (BiosAttributeRegistryP89.v1_0_0) refuses: ProcCoreDisable takes an integer from 0 to 8; EmbeddedSata takes Raid, Ahci",
      });
      expect(patches()).toBe(before);
      expect(bmc.openSessions()).toBe(0);
    } finally {
      await bmc.close();
    }
  });

  it("follows the BMC's own links and targets: its service root, its systems, its sessions, its Reset action", async () => {
    const machine = memoryMachine();
    const bmc = await startRedfishBmc({ user: "root", password: "calvin", machine });
    try {
      const config = { uri: bmc.url, user: "root", password: "calvin", ca: bmc.ca };
      expect(await drive(config, { kind: "power", action: "on" })).toEqual({ ok: true, output: "ResetType On" });
      expect(bmc.requests.slice(0, 4)).toEqual([
        "GET /redfish/v1",
        expect.stringMatching(/^POST \/redfish\/v1\/SessionService\/ActiveSessions /),
        "GET /redfish/v1/ComputerSystems",
        "GET /redfish/v1/Systems/437XR1138R2",
      ]);
      expect(bmc.requests).toContain('POST /redfish/v1/Systems/437XR1138R2/Actions/Reset {"ResetType":"On"}');
      expect(bmc.openSessions()).toBe(0);
      // A named system is found among those the collection lists.
      expect(await drive({ ...config, systemId: "437XR1138R2" }, { kind: "power", action: "status" })).toEqual({
        ok: true,
        output: "PowerState: On",
      });
      expect(await drive({ ...config, systemId: "nope" }, { kind: "power", action: "status" })).toMatchObject({
        ok: false,
        error: "Redfish: the BMC lists no ComputerSystem nope (it lists /redfish/v1/Systems/437XR1138R2)",
      });
    } finally {
      await bmc.close();
    }
  });

  it("sends no boot target the BMC does not allow: it fails naming those it does, and nothing is changed", async () => {
    const bmc = await startRedfishBmc({ user: "root", password: "calvin", bootTargets: ["None", "Pxe", "Hdd"], machine: memoryMachine() });
    try {
      const config = { uri: bmc.url, user: "root", password: "calvin", ca: bmc.ca };
      expect(
        await drive(config, { kind: "bootDevice", device: "http", uefi: true, persistent: false, uri: "http://x/y.efi" }),
      ).toMatchObject({
        ok: false,
        error: "Boot once from UefiHttp: the BMC allows None, Pxe, Hdd (BootSourceOverrideTarget@Redfish.AllowableValues)",
      });
      expect(bmc.requests.some((call) => call.startsWith("PATCH"))).toBe(false);
      expect(await drive(config, { kind: "bootDevice", device: "pxe", uefi: false, persistent: false })).toMatchObject({ ok: true });
    } finally {
      await bmc.close();
    }
  });

  it("never tries refused credentials again: one failed login a job, no Basic after it", async () => {
    const bmc = await startRedfishBmc({ user: "root", password: "calvin", machine: memoryMachine() });
    try {
      const config = { uri: bmc.url, user: "root", password: "wrong", ca: bmc.ca };
      expect(await drive(config, { kind: "power", action: "status" })).toMatchObject({
        ok: false,
        error: expect.stringMatching(
          /^Redfish: the BMC refused the user and password \(401: The user name or password is not valid\.\); they are not tried again$/,
        ),
      });
      expect(bmc.requests.map((call) => call.split(" ").slice(0, 2).join(" "))).toEqual([
        "GET /redfish/v1",
        "POST /redfish/v1/SessionService/ActiveSessions",
      ]);
    } finally {
      await bmc.close();
    }
  });

  it("takes a 200 whose body is not the resource's JSON for the error it is, with the status and the first bytes", async () => {
    for (const [notJson, expected] of [
      [
        "system",
        /^Redfish: GET \/redfish\/v1\/Systems\/437XR1138R2 answered 200 with a body that is not a JSON object: "\{\\"@odata.id\\": /,
      ],
      [
        "systems",
        /^Redfish: GET \/redfish\/v1\/ComputerSystems answered 200 with a body that is not a JSON object: "<!doctype html><title>Login/,
      ],
    ] as const) {
      const bmc = await startRedfishBmc({ user: "root", password: "calvin", notJson, machine: memoryMachine() });
      try {
        const config = { uri: bmc.url, user: "root", password: "calvin", ca: bmc.ca };
        expect(await drive(config, { kind: "power", action: "status" })).toMatchObject({
          ok: false,
          error: expect.stringMatching(expected),
        });
        expect(bmc.openSessions()).toBe(0);
      } finally {
        await bmc.close();
      }
    }
  });
});
