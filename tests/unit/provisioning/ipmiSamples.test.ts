import fc from "fast-check";
import {
  camelCase,
  IPMI_POLL_COMMANDS,
  ipmiSample,
  parseChassis,
  parseDriveHealth,
  parseSdr,
  parseSel,
  parseSelInformation,
} from "../../../lib/provisioning/pollers/ipmiSamples";

/** RackHD's IPMI poller shapes, from what ipmitool prints (the outputs below are ipmitool's own formats). */
describe("IPMI poll samples", () => {
  it("reads Get Chassis Status: the power bit and the identify light", () => {
    expect(parseChassis(" 21 00 40 70\n")).toEqual({ uid: "Off", power: true });
    expect(parseChassis("20 00 60")).toEqual({ uid: "On", power: false });
    expect(parseChassis("Chassis Power is on")).toBeUndefined();
  });

  it("reads the SEL information after its title line", () => {
    const text = "SEL Information\nVersion          : 1.5 (v1.5, v2 compliant)\nEntries          : 0\nFree Space       : 16384 bytes\n";
    expect(parseSelInformation(text)).toEqual({ Version: "1.5 (v1.5, v2 compliant)", Entries: "0", "Free Space": "16384 bytes" });
  });

  it("reads SEL entries in CSV, with a sensor number when the sensor names none", () => {
    const text =
      "1,11/23/2026,10:00:00,Power Unit #0x01,Power off/down,Asserted\n2,Pre-Init,0000011,Temperature CPU,Upper Critical,Asserted\nbad line\n";
    expect(parseSel(text)).toEqual([
      {
        logId: "1",
        date: "11/23/2026",
        time: "10:00:00",
        sensorType: "Power Unit",
        sensorNumber: "#0x01",
        event: "Power off/down",
        value: "Asserted",
      },
      { logId: "2", date: "", time: "", sensorType: "Temperature CPU", sensorNumber: "00", event: "Upper Critical", value: "Asserted" },
    ]);
  });

  it("reads verbose SDR records, keys camel-cased", () => {
    const text =
      "Sensor ID              : CPU Temp (0x1)\n Entity ID             : 3.1 (Processor)\n Sensor Type (Threshold)  : Temperature\n\nSensor ID : FAN 1 (0x2)\n";
    expect(parseSdr(text)).toEqual([
      { sensorId: "CPU Temp (0x1)", entityId: "3.1 (Processor)", sensorTypeThreshold: "Temperature" },
      { sensorId: "FAN 1 (0x2)" },
    ]);
    expect(camelCase("Sensor Type (Threshold)")).toBe("sensorTypeThreshold");
  });

  it("lists the drives whose sensor reads ok", () => {
    expect(parseDriveHealth("HDD 0,0xf0,ok,Drive Present\nHDD 1,0xf1,ns,\nHDD 2,0xf2,ok,\n")).toEqual([
      { name: "HDD 0", status: "Drive Present" },
      { name: "HDD 2", status: "Not Present" },
    ]);
  });

  it("never throws, whatever a BMC prints", () => {
    fc.assert(
      fc.property(fc.constantFrom(...IPMI_POLL_COMMANDS), fc.string({ maxLength: 400 }), (command, output) => {
        expect(() => ipmiSample(command, output)).not.toThrow();
      }),
    );
  });
});
