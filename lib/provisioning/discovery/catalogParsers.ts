/**
 * RackHD's command parser (on-tasks `lib/utils/job-utils/command-parser.js`), for the commands of
 * the discovery tasks: the exact command string picks the parser, which turns its stdout into a
 * catalog `{source, data}`. An unknown command, or output a parser cannot read, gives no catalog
 * (RackHD logged it and went on).
 */
export interface ParsedCatalog {
  source: string;
  data: unknown;
}

type Parser = (stdout: string) => ParsedCatalog | undefined;

/**
 * dmidecode's text: sections ("Handle 0x…, DMI type …" then a title line), their "Key: Value"
 * lines (one tab), and list items (two tabs) under a "Key:" line. `{<title>: {<key>: value}}`.
 */
export function parseDmidecode(stdout: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  // A title seen again (one section per CPU, memory device, …) makes a list of its sections.
  const repeated = new Set<string>();
  let section: Record<string, unknown> | undefined;
  let listKey: string | undefined;
  const lines = stdout.split("\n");
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i].replace(/\r$/, "");
    if (line.startsWith("Handle ")) {
      const title = (lines[i + 1] ?? "").trim();
      if (title === "") continue;
      section = {};
      listKey = undefined;
      if (!Object.hasOwn(out, title)) out[title] = section;
      else if (repeated.has(title)) (out[title] as unknown[]).push(section);
      else {
        out[title] = [out[title], section];
        repeated.add(title);
      }
      i += 1;
    } else if (section && line.startsWith("\t\t") && listKey) {
      (section[listKey] as string[]).push(line.trim());
    } else if (section && line.startsWith("\t")) {
      const at = line.indexOf(":");
      if (at < 0) continue;
      const key = line.slice(1, at).trim();
      const value = line.slice(at + 1).trim();
      if (value === "") {
        section[key] = [];
        listKey = key;
      } else {
        section[key] = value;
        listKey = undefined;
      }
    } else if (line.trim() === "") {
      listKey = undefined;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `lspci -nn -vmm`: blank-line separated records of "Key:\tValue" lines. */
export function parseLspci(stdout: string): Record<string, string>[] | undefined {
  const devices = stdout
    .split(/\n\s*\n/)
    .map((block) =>
      Object.fromEntries(
        block
          .split("\n")
          .map((line) => /^([^:]+):\s*(.*)$/.exec(line.trim()))
          .flatMap((match) => (match ? [[match[1], match[2]]] : [])),
      ),
    )
    .filter((device) => Object.keys(device).length > 0);
  return devices.length > 0 ? devices : undefined;
}

/** ipmitool's "Key   : Value" lines (continuation lines without a key are skipped). */
export function parseColonTable(stdout: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const line of stdout.split("\n")) {
    const match = /^([^:]+?)\s*:\s(.*)$/.exec(line.trim());
    if (match && match[1] !== "") out[match[1]] = match[2].trim();
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** One device of `lsscsi --size` (RackHD's field names). */
export interface LsscsiDevice {
  scsiInfo: string;
  peripheralType: string;
  vendorName: string;
  modelName: string;
  revisionString: string;
  devicePath: string;
  size: string;
}

const HCTL = /^\[[0-9A-Za-z]{1,8}(?::[0-9]{1,10}){3}\]$/;

/**
 * `lsscsi --size`: one device a line, `[H:C:T:L] type vendor model… rev device size`; an NVMe
 * namespace (`[N:c:n:1] disk model… device size`) has no vendor or revision column. Lines of
 * another form are skipped. Words are split on whitespace, with no backtracking pattern.
 */
export function parseLsscsi(stdout: string): LsscsiDevice[] | undefined {
  const devices = stdout.split("\n").flatMap((line): LsscsiDevice[] => {
    const words = line.trim().split(/\s+/);
    if (words.length < 4 || !HCTL.test(words[0])) return [];
    const [scsiInfo, peripheralType] = words;
    const middle = words.slice(2, -2);
    const nvme = scsiInfo.startsWith("[N:");
    const hasRevision = !nvme && middle.length >= 3;
    return [
      {
        scsiInfo,
        peripheralType,
        vendorName: nvme ? "" : (middle[0] ?? ""),
        modelName: (nvme ? middle : middle.slice(1, hasRevision ? -1 : undefined)).join(" "),
        revisionString: hasRevision ? middle[middle.length - 1] : "",
        devicePath: words[words.length - 2],
        size: words[words.length - 1],
      },
    ];
  });
  return devices.length > 0 ? devices : undefined;
}

const json = (stdout: string): unknown => {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
};

const as =
  (source: string, parse: (stdout: string) => unknown): Parser =>
  (stdout) => {
    const data = parse(stdout);
    return data === undefined || data === null ? undefined : { source, data };
  };

/** What `mokutil --sb-state` says the firmware boots with; the microkernel answers it from the SecureBoot variable. */
export interface SecureBootState {
  secureBoot: "enabled" | "disabled" | "unsupported";
  /** mokutil's own words. */
  text: string;
}

/** `mokutil --sb-state`: "SecureBoot enabled" or "disabled"; a BIOS machine's "EFI variables are not supported" is unsupported. */
export function parseSecureBootState(text: string): SecureBootState | undefined {
  const said = text.trim().split("\n")[0].trim();
  if (said === "") return undefined;
  const state = /^SecureBoot enabled$/i.test(said) ? "enabled" : /^SecureBoot disabled$/i.test(said) ? "disabled" : "unsupported";
  return { secureBoot: state, text: said.slice(0, 200) };
}

const PARSERS: Record<string, Parser> = {
  "sudo dmidecode": as("dmi", parseDmidecode),
  "sudo ohai --directory /etc/ohai/plugins": as("ohai", json),
  "sudo lshw -json": as("lshw", json),
  "sudo lspci -nn -vmm": as("lspci", parseLspci),
  "sudo lsscsi --size": as("lsscsi", parseLsscsi),
  "sudo mokutil --sb-state": as("secure-boot", parseSecureBootState),
  // A BMC whose MAC is all zeros is no BMC (RackHD stored nothing).
  "sudo ipmitool lan print": as("bmc", (stdout) => {
    const table = parseColonTable(stdout);
    return table && table["MAC Address"] !== "00:00:00:00:00:00" ? table : undefined;
  }),
  "sudo ipmitool mc info": as("ipmi-mc-info", parseColonTable),
  "sudo ipmitool sel": as("ipmi-sel-information", parseColonTable),
};

/** The catalog a command's output makes, or undefined (unknown command, unreadable output). */
export function parseCommandOutput(cmd: string, stdout: string): ParsedCatalog | undefined {
  const parser = Object.hasOwn(PARSERS, cmd) ? PARSERS[cmd] : undefined;
  return parser && stdout.trim() !== "" ? parser(stdout) : undefined;
}
