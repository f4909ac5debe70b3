# Sourced by an initramfs /init (the microkernel's init.sh, the boot tests' installer-init.sh), with MARK
# set to the marker their serial lines start with: busybox's applets, /proc, /sys and /dev, the
# virtio-net and virtio-blk modules, the kernel command line's words (as cmdline_<NAME>), and the interface
# whose MAC BOOTIF names, up with a DHCP address (as $interface).
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /tmp /root
echo "$MARK: started"
fail() { echo "$MARK: FAILED $*"; poweroff -f; }

for module in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci failover net_failover virtio_net virtio_blk; do
  insmod "/lib/modules/$module.ko" 2>/dev/null
done

# The value of a kernel command line word NAME=value.
cmdline() {
  for word in $(cat /proc/cmdline); do
    case "$word" in "$1"=*) echo "${word#"$1"=}" ;; esac
  done
}

# Brings up the interface with the MAC that BOOTIF=01-aa-bb-… names.
up_bootif() {
  mac=$(cmdline BOOTIF | sed 's/^01-//' | tr '-' ':')
  interface=""
  for path in /sys/class/net/*; do
    [ "$(cat "$path/address")" = "$mac" ] && interface="${path##*/}"
  done
  [ -n "$interface" ] || fail "no interface with MAC $mac"
  ip link set lo up
  ip link set "$interface" up
  udhcpc -i "$interface" -s /usr/share/udhcpc/default.script -q -n -t 10 2>&1 | sed "s/^/$MARK: udhcpc: /" || fail "no DHCP answer on $interface"
  echo "$MARK: $interface is up: $(ip -4 addr show dev "$interface" | grep inet) $(ip route | tr '\n' ' ')"
}
