import { isPlainObject } from "../../json";

/**
 * What a Redfish poller's run answers (a site's relay reads the BMC: the system's PowerState, the
 * chassis' Thermal and Power resources) as the poller's samples. The relay sends the resources'
 * JSON; only the fields below are kept, each checked for its type (a BMC's answer is input).
 */
/** The Redfish polls are the wire's (lib/wire/relay.ts): the relay reads them as listed there. */
import type { RedfishPollCommand } from "../../wire/relay";

export { REDFISH_POLL_COMMANDS, type RedfishPollCommand } from "../../wire/relay";

const MAX_READINGS = 64;
const NAME_MAX = 128;

const textOf = (value: unknown): string | undefined => (typeof value === "string" ? value.slice(0, NAME_MAX) : undefined);
const numberOf = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
const healthOf = (value: unknown): string | undefined => (isPlainObject(value) ? textOf(value.Health) : undefined);
const listOf = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter(isPlainObject).slice(0, MAX_READINGS) : [];

/** Drops the keys whose value is undefined (a reading the BMC did not give). */
const defined = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));

function parse(output: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(output);
    return isPlainObject(value) ? value : {};
  } catch {
    return {};
  }
}

/** A Redfish poll's sample value, under the command's name: the power state, temperatures and fans, or power drawn. */
export function redfishSample(command: RedfishPollCommand, output: string): Record<string, unknown> {
  const resource = parse(output);
  switch (command) {
    case "powerState":
      return defined({ powerState: textOf(resource.PowerState) });
    case "thermal":
      return {
        temperatures: listOf(resource.Temperatures).map((reading) =>
          defined({ name: textOf(reading.Name), readingCelsius: numberOf(reading.ReadingCelsius), health: healthOf(reading.Status) }),
        ),
        fans: listOf(resource.Fans).map((fan) =>
          defined({
            name: textOf(fan.Name),
            reading: numberOf(fan.Reading),
            units: textOf(fan.ReadingUnits),
            health: healthOf(fan.Status),
          }),
        ),
      };
    case "power":
      return {
        powerControl: listOf(resource.PowerControl).map((control) =>
          defined({
            name: textOf(control.Name),
            consumedWatts: numberOf(control.PowerConsumedWatts),
            capacityWatts: numberOf(control.PowerCapacityWatts),
          }),
        ),
      };
  }
}
