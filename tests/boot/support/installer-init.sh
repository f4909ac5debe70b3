#!/bin/busybox sh
# /init of the test's "installer" initramfs: it plays the OS installer that the iPXE profile
# boots. It reads ks= and BOOTIF= from the kernel command line, brings up that interface, fetches
# the kickstart, checks it, runs its %post section as the kickstart writes it (that is where the
# completion commands are), and powers off. Every step prints an INSTALLER: marker on the serial
# console, which the test reads.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /tmp /root
echo "INSTALLER: started"
fail() { echo "INSTALLER: FAILED $*"; poweroff -f; }

for module in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci failover net_failover virtio_net; do
  insmod "/lib/modules/$module.ko" 2>/dev/null
done

for word in $(cat /proc/cmdline); do
  case "$word" in
    ks=*) ks="${word#ks=}" ;;
    BOOTIF=*) bootif="${word#BOOTIF=01-}" ;;
    repo=*) repo="${word#repo=}" ;;
  esac
done
[ -n "$ks" ] || fail "no ks= on the kernel command line"
mac=$(echo "$bootif" | tr '-' ':')
echo "INSTALLER: ks=$ks mac=$mac"

interface=""
for path in /sys/class/net/*; do
  [ "$(cat "$path/address")" = "$mac" ] && interface="${path##*/}"
done
[ -n "$interface" ] || fail "no interface with MAC $mac"
ip link set lo up
ip link set "$interface" up
udhcpc -i "$interface" -s /usr/share/udhcpc/default.script -q -n -t 10 2>&1 | sed 's/^/INSTALLER: udhcpc: /' || fail "no DHCP answer on $interface"
echo "INSTALLER: $interface is up: $(ip -4 addr show dev "$interface" | grep inet) $(ip route | tr '\n' ' ')"

wget -q -O /tmp/ks "$ks" || fail "could not fetch the kickstart"
grep -q '^rootpw --iscrypted \$6\$' /tmp/ks || fail "the kickstart has no SHA-512 crypt rootpw"
grep -q "^url --url=$repo\$" /tmp/ks || fail "the kickstart does not install from $repo"
echo "INSTALLER: $(grep '^rootpw' /tmp/ks)"
echo "INSTALLER: $(grep '^clearpart' /tmp/ks)"

sed -n '/^%post/,/^%end/p' /tmp/ks | sed '1d;$d' > /tmp/post.sh
echo "INSTALLER: running %post ($(wc -l < /tmp/post.sh) lines)"
sh /tmp/post.sh 2>&1 | sed 's/^/INSTALLER: post: /'
echo "INSTALLER: done"
poweroff -f
