import fc from "fast-check";
import { REDFISH_POLL_COMMANDS, redfishSample } from "../../../lib/provisioning/pollers/redfishSamples";

describe("redfishSample: a Redfish poll's answer as the poller's sample", () => {
  it("keeps the power state, each temperature and fan, and each power control's watts", () => {
    expect(redfishSample("powerState", JSON.stringify({ PowerState: "On" }))).toEqual({ powerState: "On" });
    const thermal = {
      Temperatures: [
        { Name: "CPU1 Temp", ReadingCelsius: 41.5, Status: { State: "Enabled", Health: "Warning" }, UpperThresholdCritical: 90 },
      ],
      Fans: [{ Name: "Fan 1", Reading: 2100, ReadingUnits: "RPM", Status: { Health: "OK" } }],
    };
    expect(redfishSample("thermal", JSON.stringify(thermal))).toEqual({
      temperatures: [{ name: "CPU1 Temp", readingCelsius: 41.5, health: "Warning" }],
      fans: [{ name: "Fan 1", reading: 2100, units: "RPM", health: "OK" }],
    });
    expect(
      redfishSample("power", JSON.stringify({ PowerControl: [{ Name: "PSU", PowerConsumedWatts: 344, PowerCapacityWatts: 800 }] })),
    ).toEqual({
      powerControl: [{ name: "PSU", consumedWatts: 344, capacityWatts: 800 }],
    });
  });

  it("leaves out what a BMC did not give, or gave in another type, and reads an unreadable answer as empty", () => {
    expect(redfishSample("powerState", "{}")).toEqual({});
    expect(redfishSample("powerState", JSON.stringify({ PowerState: 1 }))).toEqual({});
    expect(redfishSample("thermal", "not json")).toEqual({ temperatures: [], fans: [] });
    expect(redfishSample("thermal", "[1,2]")).toEqual({ temperatures: [], fans: [] });
    expect(
      redfishSample("thermal", JSON.stringify({ Temperatures: [{ Name: 5, ReadingCelsius: "hot", Status: "OK" }, "x", null], Fans: {} })),
    ).toEqual({ temperatures: [{}], fans: [] });
    expect(redfishSample("power", JSON.stringify({ PowerControl: [{ PowerConsumedWatts: null }] }))).toEqual({ powerControl: [{}] });
  });

  it("keeps at most 64 readings and 128 characters of a name", () => {
    const many = { Temperatures: Array.from({ length: 100 }, (_, index) => ({ Name: "t".repeat(500), ReadingCelsius: index })) };
    const sample = redfishSample("thermal", JSON.stringify(many)) as { temperatures: { name: string }[] };
    expect(sample.temperatures).toHaveLength(64);
    expect(sample.temperatures[0].name).toHaveLength(128);
  });

  it("never throws, whatever a BMC answers (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...REDFISH_POLL_COMMANDS), fc.oneof(fc.string(), fc.json()), (command, output) => {
        expect(typeof redfishSample(command, output)).toBe("object");
      }),
    );
  });
});
