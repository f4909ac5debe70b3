#!/bin/busybox sh
# /init of the discovery microkernel (`npm run microkernel` builds and publishes it): it does
# what RackHD's microkernel did, with what busybox has. It reads API_BASE, NODE_ID, BOOT_TOKEN
# and BOOTIF from the kernel command line, brings up that interface, then (given INSTALL_SCRIPT, an
# install) runs the script the service renders for it, or asks the service for
# commands, runs each against this machine's own hardware (dmidecode's text from
# /sys/class/dmi/id, lspci's from /sys/bus/pci, lshw's JSON from /sys/class/net; other tools are
# missing, exit 127), posts the results back as JSON, and reboots when told to (the next network
# boot finds the node's next step). Every step prints a MICROKERNEL: marker on the console.
# Drivers: virtio-net only (Debian's cloud kernel), so it discovers VMs; see the README.
MARK=MICROKERNEL
. /lib/boot-common.sh

api=$(cmdline API_BASE)
node=$(cmdline NODE_ID)
token=$(cmdline BOOT_TOKEN)
[ -n "$api" ] && [ -n "$node" ] || fail "no API_BASE or NODE_ID on the kernel command line"
up_bootif

# An install (the image install graph): the service's install script for this machine, run with
# busybox's sh in place of the discovery loop. It reports, writes the disk, and reboots.
script=$(cmdline INSTALL_SCRIPT)
if [ -n "$script" ]; then
  wget -q -O /tmp/install.sh "$script" || fail "GET $script"
  echo "$MARK: running the install script"
  exec sh /tmp/install.sh
fi

tasks="$api/tasks/$node?token=$token"
dmi() { cat "/sys/class/dmi/id/$1" 2>/dev/null || echo "Not Specified"; }

# dmidecode's text, from the DMI table as the kernel shows it.
dmidecode_text() {
  printf 'Handle 0x0000, DMI type 0, 24 bytes\nBIOS Information\n\tVendor: %s\n\tVersion: %s\n\tRelease Date: %s\n\n' \
    "$(dmi bios_vendor)" "$(dmi bios_version)" "$(dmi bios_date)"
  printf 'Handle 0x0100, DMI type 1, 27 bytes\nSystem Information\n\tManufacturer: %s\n\tProduct Name: %s\n\tVersion: %s\n\tSerial Number: %s\n\tUUID: %s\n\n' \
    "$(dmi sys_vendor)" "$(dmi product_name)" "$(dmi product_version)" "$(dmi product_serial)" "$(dmi product_uuid)"
  printf 'Handle 0x0300, DMI type 3, 22 bytes\nChassis Information\n\tManufacturer: %s\n\tType: %s\n\n' "$(dmi chassis_vendor)" "$(dmi chassis_type)"
}

# lspci -nn -vmm's records, from sysfs.
lspci_text() {
  for device in /sys/bus/pci/devices/*; do
    printf 'Slot:\t%s\nClass:\t[%s]\nVendor:\t[%s]\nDevice:\t[%s]\n\n' "${device##*/}" \
      "$(cut -c3-6 "$device/class")" "$(cut -c3- "$device/vendor")" "$(cut -c3- "$device/device")"
  done
}

# lshw -json's shape, with the NICs (class network, the MAC as serial).
lshw_json() {
  printf '{"id":"microkernel","class":"system","product":"%s","vendor":"%s","children":[' "$(dmi product_name)" "$(dmi sys_vendor)"
  first=1
  for path in /sys/class/net/*; do
    name="${path##*/}"
    [ "$name" = lo ] && continue
    [ $first = 1 ] || printf ','
    first=0
    printf '{"id":"network","class":"network","logicalname":"%s","serial":"%s"}' "$name" "$(cat "$path/address")"
  done
  printf ']}\n'
}

run() {
  case "$1" in
    "sudo dmidecode") dmidecode_text ;;
    "sudo lspci -nn -vmm") lspci_text ;;
    "sudo lshw -json") lshw_json ;;
    *) return 127 ;;
  esac
}

# A JSON string of stdin: backslashes, quotes, tabs and newlines escaped.
json_string() {
  printf '"'
  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' -e 's/\r//g' | awk 'NR > 1 { printf "\\n" } { printf "%s", $0 }'
  printf '"'
}

idle=0
while [ $idle -lt 30 ]; do
  rm -f /tmp/answer
  wget -q -O /tmp/answer "$tasks" || fail "GET $tasks"
  if [ ! -s /tmp/answer ]; then
    idle=$((idle + 1))
    sleep 1
    continue
  fi
  idle=0
  grep -o '"cmd":"[^"]*"' /tmp/answer | sed -e 's/^"cmd":"//' -e 's/"$//' > /tmp/commands
  if grep -qx 'sudo reboot' /tmp/commands; then
    echo "MICROKERNEL: told to reboot"
    reboot -f
  fi
  {
    printf '{"identifier":"%s","tasks":[' "$node"
    first=1
    while IFS= read -r cmd; do
      [ $first = 1 ] || printf ','
      first=0
      run "$cmd" > /tmp/stdout 2>/dev/null
      code=$?
      echo "MICROKERNEL: $cmd -> exit $code" > /dev/console
      printf '{"cmd":%s,"stdout":%s,"stderr":"",' "$(printf '%s' "$cmd" | json_string)" "$(json_string < /tmp/stdout)"
      if [ $code = 0 ]; then printf '"error":null}'; else printf '"error":{"code":%s}}' "$code"; break; fi
    done < /tmp/commands
    printf ']}'
  } > /tmp/results
  wget -q -O /dev/null --header 'Content-Type: application/json' --post-file /tmp/results "$tasks" || fail "POST $tasks"
done
fail "no commands for 30 s"
