# Sourced by an initramfs /init (the microkernel's init.sh, the boot tests' installer-init.sh), with MARK
# set to the marker their serial lines start with: busybox's applets, /proc, /sys and /dev, the
# drivers the machine's devices ask for, the kernel command line's words (cmdline NAME), and the
# port the machine booted from, up with a DHCP address (as $interface).
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /tmp /root
echo "$MARK: started"
fail() { echo "$MARK: FAILED $*"; poweroff -f; }

# Loads the drivers this machine's devices ask for, by their modalias (the PCI functions first;
# then what those drivers bring: virtio devices, SCSI disks, USB and ACPI devices), pass after pass
# until no new device appears. A device no module claims is left alone.
load_drivers() {
  seen=""
  for pass in 1 2 3 4 5; do
    aliases=$(cat /sys/bus/*/devices/*/modalias 2>/dev/null | sort -u)
    [ "$aliases" = "$seen" ] && break
    seen=$aliases
    echo "$aliases" | xargs modprobe -qa 2>/dev/null
  done
  # A controller's disks and a USB keyboard appear after its probe returns (the bus is scanned in
  # the background): their drivers are loaded for them in advance.
  [ -n "$(ls /sys/class/scsi_host 2>/dev/null)" ] && modprobe -q sd_mod
  [ -d /sys/bus/usb ] && modprobe -qa usbhid hid_generic
  # A SAS or RAID controller finds its disks in the background, for seconds after its probe: wait
  # (up to 20 s) until the disks have stayed the same for 2 s, so the catalogs list every one.
  if [ -n "$(ls /sys/class/scsi_host 2>/dev/null)" ]; then
    last="" steady=0 waited=0
    while [ $steady -lt 2 ] && [ $waited -lt 20 ]; do
      now=$(ls /sys/class/scsi_device /sys/block 2>/dev/null | tr '\n' ' ')
      if [ "$now" = "$last" ]; then steady=$((steady + 1)); else steady=0; last=$now; fi
      sleep 1
      waited=$((waited + 1))
    done
    echo "$MARK: disks after ${waited} s: $(ls /sys/block | tr '\n' ' ')"
  fi
  # A BMC on the system interface (ipmi_si bound it): its device, /dev/ipmi0, for ipmitool.
  [ -d /sys/class/ipmi ] || grep -q '^ipmi_si ' /proc/modules && modprobe -q ipmi_devintf
  # busybox's mount tries the file systems /proc/filesystems lists: the installer's need loading first.
  [ -n "$(ls /sys/block 2>/dev/null)" ] && modprobe -qa ext4 vfat
  echo "$MARK: drivers: $(cut -d' ' -f1 /proc/modules | sort | tr '\n' ' ')"
}
load_drivers

# The value of a kernel command line word NAME=value: the last one, where a microkernel booted from
# virtual media has the rest of its line from the service (/tmp/media.cmdline, after its own).
cmdline() {
  value=""
  for word in $(cat /proc/cmdline /tmp/media.cmdline 2>/dev/null); do
    case "$word" in "$1"=*) value="${word#"$1"=}" ;; esac
  done
  [ -n "$value" ] && echo "$value"
}

# The MAC that BOOTIF=01-aa-bb-… names (the port the firmware booted from), as aa:bb:…, lower case.
bootif_mac() {
  cmdline BOOTIF | sed 's/^01-//' | tr '-' ':' | tr 'A-F' 'a-f'
}

# The machine's ports (not lo), the one with MAC $1 first.
ports() {
  for path in /sys/class/net/*; do
    [ "$(cat "$path/address")" = "$1" ] && echo "${path##*/}"
  done
  for path in /sys/class/net/*; do
    name="${path##*/}"
    [ "$name" = lo ] || [ "$(cat "$path/address")" = "$1" ] || echo "$name"
  done
}

# Brings up the port with the MAC that BOOTIF=01-aa-bb-… names (the one the firmware booted from),
# waiting up to 10 s for its driver; if it gets no DHCP answer, each other port in turn.
up_bootif() {
  mac=$(bootif_mac)
  waited=0
  while [ -n "$mac" ] && ! grep -qx "$mac" /sys/class/net/*/address 2>/dev/null && [ $waited -lt 10 ]; do
    sleep 1
    waited=$((waited + 1))
  done
  grep -qx "$mac" /sys/class/net/*/address 2>/dev/null || echo "$MARK: no port with the boot MAC ${mac:-(none)}; trying each port"
  ip link set lo up
  # A static address (NET_ADDRESS=a.b.c.d/n, from virtual media on a network with no DHCP): on the boot port.
  address=$(cmdline NET_ADDRESS)
  if [ -n "$address" ]; then
    interface=$(ports "$mac" | head -n 1)
    ip link set "$interface" up
    ip addr add "$address" dev "$interface" || fail "ip addr add $address dev $interface"
    gateway=$(cmdline NET_GATEWAY)
    [ -n "$gateway" ] && ip route add default via "$gateway" dev "$interface"
    cmdline NET_DNS | tr ',' '\n' | sed 's/^/nameserver /' > /etc/resolv.conf
    # The link comes up a moment after the port does (a few seconds on some NICs).
    waited=0
    while [ "$(cat "/sys/class/net/$interface/operstate" 2>/dev/null)" != up ] && [ $waited -lt 10 ]; do
      sleep 1
      waited=$((waited + 1))
    done
    echo "$MARK: $interface is up (static): $address${gateway:+ via $gateway}"
    return 0
  fi
  for interface in $(ports "$mac"); do
    ip link set "$interface" up
    udhcpc -i "$interface" -s /usr/share/udhcpc/default.script -q -n -t 5 -T 2 > /tmp/udhcpc.log 2>&1
    answered=$?
    sed "s/^/$MARK: udhcpc: /" /tmp/udhcpc.log
    if [ $answered = 0 ]; then
      echo "$MARK: $interface is up: $(ip -4 addr show dev "$interface" | grep inet) $(ip route | tr '\n' ' ')"
      return 0
    fi
    echo "$MARK: no DHCP answer on $interface"
    ip link set "$interface" down
  done
  fail "no DHCP answer on any port"
}
