/**
 * What an IPMI poller's command printed (ipmitool, run by a site's relay) as RackHD's poller
 * samples: the commands RackHD's ipmitool helper ran and the shapes its parser gave. Written from
 * RackHD's documented shapes; each parser takes any text and never throws (a BMC's output is input).
 */
/** The polls and their ipmitool arguments are the wire's (lib/wire/relay.ts): the relay runs them as listed there. */
import type { IpmiPollCommand } from "../../wire/relay";

export { IPMI_POLL_COMMANDS, IPMITOOL_POLL_ARGS, type IpmiPollCommand } from "../../wire/relay";

const lines = (text: string): string[] =>
  text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "");

/** "Sensor Type (Threshold)" → "sensorTypeThreshold", as lodash's camelCase. */
export const camelCase = (text: string): string =>
  text
    .replace(/[^A-Za-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean)
    .map((word, index) => (index === 0 ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1).toLowerCase()))
    .join("");

/** `sel` (SEL information): its "key : value" lines after the first, as an object. */
export function parseSelInformation(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines(text).slice(1)) {
    const at = line.indexOf(" : ");
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 3).trim();
  }
  return out;
}

/** `-c sel list`: one entry per CSV line of six fields. */
export function parseSel(text: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const line of lines(text)) {
    if (line.includes("SEL Entry")) continue;
    const rows = line.split(",");
    if (rows.length !== 6) continue;
    const sensor = rows[3].split(" ");
    if (sensor.length < 3) sensor.push("00");
    const preInit = rows[1].includes("Pre-Init");
    out.push({
      logId: rows[0],
      date: preInit ? "" : rows[1],
      time: preInit ? "" : rows[2],
      sensorType: sensor.slice(0, -1).join(" "),
      sensorNumber: sensor[sensor.length - 1],
      event: rows[4],
      value: rows[5],
    });
  }
  return out;
}

const UID = ["Off", "Temporary On", "On", "Reserved"];

/** `raw 0x00 0x01` (Get Chassis Status): the power bit and the identify light; undefined for anything else. */
export function parseChassis(text: string): { uid: string; power: boolean } | undefined {
  const hex = text.replace(/\s/g, "");
  if (!/^([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$/.test(hex)) return undefined;
  return { uid: UID[Number.parseInt(hex[4], 16) & 0x3], power: (Number.parseInt(hex[1], 16) & 0x1) === 1 };
}

/** `-c sdr type 0xd`: the drives whose sensor reads ok, with their status (empty: not present). */
export function parseDriveHealth(text: string): { name: string; status: string }[] {
  return lines(text)
    .map((line) => line.trim().split(","))
    .filter((items) => items[2] === "ok")
    .map((items) => ({ name: items[0], status: items[items.length - 1] || "Not Present" }));
}

/** `-v sdr`: one object per sensor record (blank-line separated), its "Key : value" lines camel-cased. */
export function parseSdr(text: string): Record<string, string>[] {
  return text
    .split(/\n\s*\n/)
    .map((block) => {
      const record: Record<string, string> = {};
      for (const line of lines(block)) {
        const at = line.indexOf(":");
        if (at <= 0) continue;
        const key = camelCase(line.slice(0, at));
        if (key) record[key] = line.slice(at + 1).trim();
      }
      return record;
    })
    .filter((record) => Object.keys(record).length > 0);
}

/** A poll's sample value: what RackHD kept under the command's name. */
export function ipmiSample(command: IpmiPollCommand, output: string): unknown {
  switch (command) {
    case "sdr":
      return parseSdr(output);
    case "sel":
      return parseSel(output);
    case "selInformation":
      return parseSelInformation(output);
    case "chassis":
      return parseChassis(output) ?? {};
    case "driveHealth":
      return parseDriveHealth(output);
  }
}
