#!/bin/busybox sh
# /init of the test's "installer" initramfs: it plays the OS installer that the iPXE profile
# boots. It reads ks= and BOOTIF= from the kernel command line, brings up that interface, fetches
# the kickstart, checks it, runs its %post section as the kickstart writes it (that is where the
# completion commands are), and powers off. Every step prints an INSTALLER: marker on the serial
# console, which the test reads.
MARK=INSTALLER
. /lib/boot-common.sh

ks=$(cmdline ks)
repo=$(cmdline repo)
[ -n "$ks" ] || fail "no ks= on the kernel command line"
echo "INSTALLER: ks=$ks mac=$(cmdline BOOTIF)"
up_bootif

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
