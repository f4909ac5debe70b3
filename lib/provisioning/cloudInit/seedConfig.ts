import { shellWord } from "../scriptValues";

/**
 * What an installer writes into the installed system so that its cloud-init finds the service
 * (`/etc/cloud/cloud.cfg.d/90-provisioner.cfg`): the NoCloud datasource seeded from the machine's
 * seed URL, and nothing else to try. Its first boot then reads its meta-data, the node's
 * user-data and the service's vendor-data (which turns on reporting).
 *
 * With the node's network plan (issue 54), its netplan too, as the system configuration's
 * `network`: cloud-init configures the network before it can reach any seed, and the NoCloud
 * datasource of cloud-init 22.4 (Debian 12's) reads no network-config from a seed URL; a
 * `network` in its own configuration it does read, first, at the first boot.
 */
export const SEED_CONFIG_PATH = "/etc/cloud/cloud.cfg.d/90-provisioner.cfg";

export const seedConfig = (seedUrl: string, network?: unknown): string =>
  `${JSON.stringify({ datasource_list: ["NoCloud", "None"], datasource: { NoCloud: { seedfrom: seedUrl } }, ...(network !== undefined && { network }) })}\n`;

/**
 * Shell functions every shipped install script defines, for busybox (wget) and full systems
 * (curl) alike: `report TYPE NAME RESULT DESCRIPTION` posts one event in cloud-init's webhook
 * format (start/finish; RESULT SUCCESS or FAIL on finish), `upload_log NAME FILE` posts a log in
 * 256 KiB chunks numbered from 1 (each accepted once, so a retry is harmless). Neither fails the
 * script: a report that does not arrive is a gap in the timeline, not a failed install.
 */
export const machineFunctions = (reportUrl: string): string[] => [
  `REPORT_URL=${shellWord(reportUrl)}`,
  "post() {",
  '  if command -v curl >/dev/null 2>&1; then curl -fsS -m 60 -o /dev/null -X POST -H "Content-Type: $2" --data-binary @"$3" "$1"',
  // busybox 1.35's `wget -T` crashes (Debian 12): `timeout` bounds it instead.
  '  else timeout 60 wget -q -O /dev/null --header "Content-Type: $2" --post-file "$3" "$1"; fi',
  "}",
  "report() {",
  "  desc=$(printf '%s' \"$4\" | tr -d '\"\\\\' | tr '\\n\\t' '  ' | cut -c1-900)",
  '  printf \'{"event_type":"%s","origin":"installer","name":"%s","result":"%s","description":"%s"}\' "$1" "$2" "$3" "$desc" > /tmp/.report.json',
  '  post "$REPORT_URL" application/json /tmp/.report.json || true',
  "}",
  // dd, not split: busybox builds (the microkernel's) may have no split.
  "upload_log() {",
  '  [ -s "$2" ] || return 0',
  '  size=$(wc -c < "$2"); n=1; off=0',
  '  while [ "$off" -lt "$size" ]; do',
  '    dd if="$2" of=/tmp/.log-part bs=65536 skip=$((off / 65536)) count=4 2>/dev/null',
  '    post "$REPORT_URL/logs/$1?seq=$n" text/plain /tmp/.log-part || true',
  "    n=$((n + 1)); off=$((off + 262144))",
  "  done",
  "  rm -f /tmp/.log-part",
  "}",
];
