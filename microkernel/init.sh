#!/bin/busybox sh
# /init of the discovery microkernel (`npm run microkernel` builds and publishes it): it does
# what RackHD's microkernel did, with what busybox has. It reads API_BASE, NODE_ID, BOOT_TOKEN
# and BOOTIF from the kernel command line, brings up that interface, then (given INSTALL_SCRIPT, an
# install) runs the script the service renders for it, or asks the service for
# commands, runs each against this machine's own hardware (dmidecode's text from
# /sys/class/dmi/id, lspci's from /sys/bus/pci, lshw's JSON from /sys/class/net; other tools are
# missing, exit 127), posts the results back as JSON, and reboots when told to (the next network
# boot finds the node's next step). Every step prints a MICROKERNEL: marker on the console.
# Drivers: Debian's generic kernel's, for the NICs and disks servers ship (drivers.ts), loaded by
# the machine's own PCI ids; docs/boot.md lists them.
MARK=MICROKERNEL
. /lib/boot-common.sh
. /lib/lifecycle.sh

api=$(cmdline API_BASE)
node=$(cmdline NODE_ID)
[ -n "$api" ] && [ -n "$node" ] || fail "no API_BASE or NODE_ID on the kernel command line"
up_bootif

# Booted from virtual media (MEDIA_PROFILE=1): the image carries the node, its port and its network;
# the rest of the kernel line (its workflow's step, its boot token) comes from the service now, the
# way a network boot's profile would have brought it. Asked again for two minutes while the service
# has nothing (the reset that booted it may not be reported yet); then the machine powers off, as a
# network boot with nothing to do leaves to the disk (a server boots its disk before a virtual CD:
# this is a machine with nothing on its disk, or whose image is still inserted after its workflow).
# The words are not shown (the boot token is one).
media_profile() {
  bootmac=$(bootif_mac)
  tries=0
  while [ $tries -lt 24 ]; do
    tries=$((tries + 1))
    if wget -q -O /tmp/media.profile "$api/profiles?macs=$bootmac&loader=media"; then
      read -r kind rest < /tmp/media.profile
      if [ "$kind" = args ]; then
        echo "$rest" > /tmp/media.cmdline
        echo "$MARK: media profile: $(echo "$rest" | wc -w) words"
        return 0
      fi
      echo "$MARK: media profile: $rest"
    else
      echo "$MARK: media profile: GET failed"
    fi
    sleep 5
  done
  echo "$MARK: nothing to boot from virtual media: powering off"
  poweroff -f
}
[ "$(cmdline MEDIA_PROFILE)" = 1 ] && media_profile
api=$(cmdline API_BASE)
node=$(cmdline NODE_ID)
token=$(cmdline BOOT_TOKEN)

# An install (the image install graph): the service's install script for this machine, run with
# busybox's sh in place of the discovery loop. It reports, writes the disk, and reboots.
script=$(cmdline INSTALL_SCRIPT)
if [ -n "$script" ]; then
  wget -q -O /tmp/install.sh "$script" || fail "GET $script"
  echo "$MARK: running the install script"
  exec sh /tmp/install.sh
fi

# The discovery overlay (initramfs.ts: ipmitool, and the programs of a release's erase and a rescue's
# SSH, with their libraries), fetched once, only by a machine that needs it: one with a BMC (for its
# bmc catalog), or one told to erase its disks or to start SSH.
overlay=$(cmdline OVERLAYFS)
# Unpacked marks a file, not a variable: the commands run in subshells. A fetch that fails (a
# server slow under load) is tried three times, and again by the next command that needs it.
unpack_overlay() {
  [ -e /tmp/overlay.unpacked ] && return 0
  [ -n "$overlay" ] || { echo "$MARK: no OVERLAYFS on the kernel command line"; return 1; }
  for try in 1 2 3; do
    if wget -q -O - "$overlay" | gunzip -c | (cd / && cpio -i -d -m 2>/dev/null); then
      : > /tmp/overlay.unpacked
      echo "$MARK: overlay unpacked ($1)"
      return 0
    fi
    echo "$MARK: GET $overlay failed ($1, try $try of 3)"
    [ $try = 3 ] || sleep 5
  done
  return 1
}
if [ -e /dev/ipmi0 ] && unpack_overlay "BMC"; then
  echo "$MARK: BMC found; overlay unpacked: $(command -v ipmitool || echo 'no ipmitool in it')"
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

# The names pci.ids gives to the wanted keys ($1: "V<vendor> D<vendor>:<device> C<class><subclass> C<class>"),
# one "key<TAB>name" line each, in one pass over the initramfs's keyed copy of it (microkernel/pciIds.ts).
pci_names() {
  [ -r /usr/share/misc/pci.names ] || return 0
  awk -F '\t' -v want="$1" '
    BEGIN { n = split(want, keys, " "); for (i = 1; i <= n; i++) need[keys[i]] = 1 }
    $1 in need' /usr/share/misc/pci.names
}

# The name pci_names found for key $1, followed by a space (nothing when it has none).
named() {
  name=$(grep -m1 "^$1	" /tmp/pcinames | cut -f2)
  [ -n "$name" ] && printf '%s ' "$name"
}

# A PCI function's ids from sysfs, as c (class and subclass), v (vendor) and d (device), hex, lower
# case. The shell's own `read` and expansions: it runs for every function, and each program started
# costs tens of milliseconds on an emulated machine.
pci_ids() {
  read -r c < "$1/class"
  read -r v < "$1/vendor"
  read -r d < "$1/device"
  c=${c#0x} v=${v#0x} d=${d#0x}
  c=${c%??}
}

# Looks up the names of every PCI function's ids into /tmp/pcinames (once).
load_pci_names() {
  [ -e /tmp/pcinames ] && return 0
  want=""
  for device in /sys/bus/pci/devices/*; do
    pci_ids "$device"
    want="$want C$c C${c%??} V$v D$v:$d"
  done
  pci_names "$want" > /tmp/pcinames
}

# lspci -nn -vmm's records, from sysfs, named as lspci names them (pci.ids).
lspci_text() {
  load_pci_names
  for device in /sys/bus/pci/devices/*; do
    pci_ids "$device"
    echo "${device##*/} $c $v $d"
  done > /tmp/pcidevs
  # Named in one pass (a class by its subclass, else by its class alone), not a lookup per name.
  awk '
    FILENAME == "/tmp/pcinames" { tab = index($0, "\t"); key = substr($0, 1, tab - 1); if (!(key in name)) name[key] = substr($0, tab + 1) " "; next }
    {
      c = $2; v = $3; d = $4
      class = ("C" c) in name ? name["C" c] : name["C" substr(c, 1, 2)]
      printf "Slot:\t%s\nClass:\t%s[%s]\nVendor:\t%s[%s]\nDevice:\t%s[%s]\n\n", $1, class, c, name["V" v], v, name["D" v ":" d], d
    }' /tmp/pcinames /tmp/pcidevs
}

# A JSON string of $1. Printable ASCII with no quote or backslash is its own JSON text: written as
# it is, without json_string's pipe (five processes a value; lshw's catalog writes some fifteen
# values, and a process costs milliseconds on an emulated machine). Anything else goes through it.
jstr() {
  case "$1" in
    *[\"\\]* | *[![:print:]]*) printf '%s' "$1" | json_string ;;
    *) printf '"%s"' "$1" ;;
  esac
}

# The PCI function a device sits on or under (a virtio NIC's is its parent), or nothing.
pci_of() {
  path=$(readlink -f "$1")
  while [ -n "$path" ] && [ "$path" != /sys/devices ]; do
    [ -e "$path/vendor" ] && [ -e "$path/class" ] && { echo "$path"; return; }
    path=${path%/*}
  done
}

# lshw -json's shape: the NICs (class network: the MAC as serial, the driver, the PCI function
# and its names) and the disks (class disk: size in bytes, model, serial, removable or not).
lshw_json() {
  load_pci_names
  printf '{"id":"microkernel","class":"system","product":%s,"vendor":%s,"children":[' "$(jstr "$(dmi product_name)")" "$(jstr "$(dmi sys_vendor)")"
  first=1
  for path in /sys/class/net/*; do
    name="${path##*/}"
    [ "$name" = lo ] || [ ! -e "$path/address" ] && continue
    [ $first = 1 ] || printf ','
    first=0
    driver=$(basename "$(readlink "$path/device/driver")" 2>/dev/null)
    pci=$(pci_of "$path/device")
    vendor="" product="" bus=""
    if [ -n "$pci" ]; then pci_ids "$pci"; vendor=$(named "V$v"); product=$(named "D$v:$d"); bus="pci@${pci##*/}"; fi
    link=$(cat "$path/carrier" 2>/dev/null)
    printf '{"id":"network","class":"network","logicalname":%s,"serial":%s,"businfo":%s,"vendor":%s,"product":%s,"configuration":{"driver":%s,"link":%s}}' \
      "$(jstr "$name")" "$(jstr "$(cat "$path/address")")" "$(jstr "$bus")" "$(jstr "${vendor% }")" "$(jstr "${product% }")" "$(jstr "$driver")" \
      "$(jstr "$([ "$link" = 1 ] && echo yes || echo no)")"
  done
  for path in /sys/block/*; do
    [ -e "$path/size" ] || continue
    name="${path##*/}"
    case "$name" in loop* | ram* | sr* | fd*) continue ;; esac
    [ $first = 1 ] || printf ','
    first=0
    device="$path/device"
    model=$(cat "$device/model" 2>/dev/null)
    serial=$(cat "$device/serial" 2>/dev/null)
    # A SCSI or SATA disk's serial is its VPD page 0x80 (after a 4-byte header).
    [ -n "$serial" ] || serial=$(tail -c +5 "$device/vpd_pg80" 2>/dev/null | tr -d '\000')
    driver=$(basename "$(readlink "$device/driver")" 2>/dev/null)
    [ -n "$driver" ] || driver=$(basename "$(readlink "$device/device/driver")" 2>/dev/null)
    printf '{"id":"disk","class":"disk","logicalname":%s,"size":%s,"product":%s,"vendor":%s,"serial":%s,"configuration":{"driver":%s,"removable":%s}}' \
      "$(jstr "/dev/$name")" "$(($(cat "$path/size") * 512))" "$(jstr "$(echo $model)")" "$(jstr "$(cat "$device/vendor" 2>/dev/null | sed -e 's/ *$//' -e '/^0x/d')")" \
      "$(jstr "$(echo $serial)")" "$(jstr "$driver")" "$(jstr "$([ "$(cat "$path/removable")" = 1 ] && echo yes || echo no)")"
  done
  printf ']}\n'
}

# A size as lsscsi --size prints it: three significant digits, decimal units.
decimal_size() {
  awk -v b="$1" 'BEGIN { split("B kB MB GB TB PB", u, " "); i = 1; while (b >= 1000 && i < 6) { b /= 1000; i++ } printf (b >= 100 || i == 1 ? "%.0f%s" : b >= 10 ? "%.1f%s" : "%.2f%s"), b, u[i] }'
}

# lsscsi --size: the SCSI devices ([host:channel:target:lun] type vendor model rev device size),
# then the NVMe namespaces as lsscsi shows them ([N:controller:namespace:1]).
lsscsi_text() {
  for device in /sys/bus/scsi/devices/*:*:*:*; do
    [ -e "$device/type" ] || continue
    case "$(cat "$device/type")" in 0) type=disk ;; 5) type=cd/dvd ;; 1) type=tape ;; 13) type=enclosu ;; *) type=other ;; esac
    block=$(ls "$device/block" 2>/dev/null | head -1)
    size=-
    [ -n "$block" ] && size=$(decimal_size $(($(cat "/sys/block/$block/size") * 512)))
    printf '[%s]\t%s\t%-8s %-16s %-4s\t%s\t%s\n' "${device##*/}" "$type" "$(cat "$device/vendor")" "$(cat "$device/model")" "$(cat "$device/rev")" "${block:+/dev/$block}" "$size"
  done
  for path in /sys/block/nvme*n*; do
    [ -e "$path" ] || continue
    name=${path##*/}
    controller=${name#nvme}; controller=${controller%%n*}
    printf '[N:%s:%s:1]\tdisk\t%-32s\t/dev/%s\t%s\n' "$controller" "$(cat "$path/nsid" 2>/dev/null || echo 1)" "$(echo $(cat "$path/device/model"))__$(cat "$path/nsid" 2>/dev/null || echo 1)" "$name" "$(decimal_size $(($(cat "$path/size") * 512)))"
  done
}

# mokutil --sb-state's answer, from the firmware's SecureBoot variable (its fifth byte: 1 when on),
# else from what the kernel said of it at boot (its "secureboot:" line). Both may be read under
# the kernel's lockdown. A machine without it is answered, not failed (mokutil exits 255 there):
# the answer is the catalog, and the catalog task goes on.
EFI_GLOBAL=8be4df61-93ca-11d2-aa0d-00e098032b8c
sb_state() {
  [ -d /sys/firmware/efi ] || { echo "EFI variables are not supported on this system"; return 0; }
  vars=/sys/firmware/efi/efivars
  [ -e "$vars/SecureBoot-$EFI_GLOBAL" ] || { modprobe -q efivarfs; mount -t efivarfs efivarfs "$vars"; } > /dev/console 2>&1
  # The whole variable, its fifth byte taken (efivarfs files do not seek, so od -j would not skip).
  value=$(od -An -tu1 "$vars/SecureBoot-$EFI_GLOBAL" 2> /dev/null | awk '{ print $5 }')
  [ -n "$value" ] || value=$(dmesg | sed -n 's/.*secureboot: Secure boot \(enabled\|disabled\).*/\1/p' | head -n 1)
  echo "$MARK: Secure Boot: ${value:-unknown}" > /dev/console
  case "$value" in
    1 | enabled) echo "SecureBoot enabled" ;;
    0 | disabled) echo "SecureBoot disabled" ;;
    *) echo "This system doesn't support Secure Boot" ;;
  esac
}

run() {
  case "$1" in
    "sudo mokutil --sb-state") sb_state ;;
    "sudo dmidecode") dmidecode_text ;;
    "sudo lspci -nn -vmm") lspci_text ;;
    "sudo lshw -json") lshw_json ;;
    "sudo lsscsi --size") lsscsi_text ;;
    # The BMC's own answers, from inside (the KCS interface): RackHD's bmc catalog commands.
    "sudo ipmitool lan print" | "sudo ipmitool sel" | "sudo ipmitool mc info" | "sudo ipmitool fru")
      # No BMC: nothing to catalog (127, as for a missing command). A BMC but no ipmitool: the task
      # could not run, and says why (126: the service fails the task with this line).
      [ -e /dev/ipmi0 ] || return 127
      if ! command -v ipmitool > /dev/null; then
        echo "A BMC is on its KCS interface (/dev/ipmi0), but the microkernel has no ipmitool: its discovery overlay (OVERLAYFS=) was not given or could not be fetched"
        return 126
      fi
      ipmitool ${1#sudo ipmitool } ;;
    # A node's life-cycle actions (lifecycle.sh): erase its disks, or SSH for the operator (rescue).
    "erase-disks quick" | "erase-disks full") unpack_overlay "erase" > /dev/console 2>&1; erase_disks "${1#erase-disks }" ;;
    "rescue-ssh "*) unpack_overlay "rescue" > /dev/console 2>&1; rescue_ssh "${1#rescue-ssh }" ;;
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
  # A release ends with the machine off (its disks erased): QEMU's process ends, a server's BMC reads off.
  if grep -qx 'sudo poweroff' /tmp/commands; then
    echo "MICROKERNEL: told to power off"
    sync
    poweroff -f
  fi
  {
    printf '{"identifier":"%s","tasks":[' "$node"
    first=1
    while IFS= read -r cmd; do
      [ $first = 1 ] || printf ','
      first=0
      # In a subshell: a command that breaks (a device's file missing) fails alone, not /init.
      (run "$cmd") > /tmp/stdout 2>/dev/null
      code=$?
      echo "MICROKERNEL: $cmd -> exit $code" > /dev/console
      printf '{"cmd":%s,"stdout":%s,"stderr":"",' "$(printf '%s' "$cmd" | json_string)" "$(json_string < /tmp/stdout)"
      if [ $code = 0 ]; then printf '"error":null}'; else printf '"error":{"code":%s}}' "$code"; break; fi
    done < /tmp/commands
    printf ']}'
  } > /tmp/results
  wget -q -O /dev/null --header 'Content-Type: application/json' --post-file /tmp/results "$tasks" || fail "POST $tasks"
  # Rescue: SSH is up and the action has ended; nothing more to ask until the node is rebooted (unrescue).
  # (A file, not a variable: rescue_ssh ran in the command's subshell.)
  if [ -e /tmp/rescue ]; then
    echo "MICROKERNEL: in rescue; reboot the node to leave it"
    while :; do sleep 3600; done
  fi
done
fail "no commands for 30 s"
