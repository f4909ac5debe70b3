#!/bin/sh
# Builds a small Debian 12 disk image with cloud-init, from Debian's packages, with no loop
# device and no mount (CI sandboxes have neither): mmdebstrap makes the root tree, `mkfs.ext4 -d`
# makes the root file system from it, mtools and syslinux make a FAT boot partition that boots
# by BIOS (syslinux) and by UEFI as Debian's own installs do, Secure Boot on or off (Debian's shim,
# signed by the UEFI CA, then Debian's signed GRUB, then Debian's signed kernel), and sfdisk joins
# them into one MBR disk.
# The system locale is C.UTF-8 (glibc's own): without one, cloud-init's locale module asked
# locale-gen for en_US.UTF-8, which Debian's does not take as an argument, and failed on every
# first boot (a warning, and about 10 s under emulation).
# The first boot makes ed25519 and ECDSA host keys, not RSA (OpenSSH's clients prefer ed25519; an
# RSA 3072 key took 30 s of the first boot under emulation), and skips cloud-init's grub-dpkg module
# (it sets grub-pc's install device, and the image has no grub-pc: 4 s). A node's user-data can say
# otherwise (its cloud-config overrides /etc/cloud/cloud.cfg.d).
# A planned network (issue 54) is rendered by cloud-init for ifupdown: bonds need ifenslave's
# hooks, VLAN interfaces vlan's, and the default route cloud-init writes is net-tools' `route`.
# The image's cloud-init finds its datasource where the installer says (the image install graph
# writes /etc/cloud/cloud.cfg.d/90-provisioner.cfg into it); until then it has none.
#
#   images/build-debian-12.sh OUT.raw.zst   (or OUT.raw.gz)
#
# Needs root (mmdebstrap's root mode), mmdebstrap, e2fsprogs, dosfstools, mtools, syslinux,
# fdisk, zstd (or gzip), and apt's sources for Debian 12 (shim-signed, grub-efi-amd64-signed): `.ci/run`
# installs them.
set -eu
out=${1:?usage: build-debian-12.sh OUT.raw.zst}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root

# Debian's generic kernel, as on a physical server (the cloud flavour has no SATA, RAID or server
# NIC drivers), without the module trees a server has no use for (graphics, sound, media, radios,
# staging), left out as dpkg unpacks it; its initramfs is then made from what is left.
excluded=""
# Nor a floppy or a parallel port's: no server has one, and on an emulated PC their probes took about
# 6 s of each first boot (cloud-init's search for its seed read the empty floppy drive five times).
for tree in drivers/gpu drivers/media drivers/staging drivers/net/wireless drivers/bluetooth net/bluetooth net/wireless \
  net/mac80211 sound drivers/iio drivers/input/touchscreen drivers/isdn drivers/infiniband drivers/video/fbdev \
  drivers/block/floppy.ko drivers/parport drivers/char/ppdev.ko; do
  excluded="$excluded --dpkgopt=path-exclude=/lib/modules/*/kernel/$tree*"
done

# Nor the packages' manuals and documentation, as Debian's own container images leave them out (the
# copyright files stay): less for every install to write.
excluded="$excluded --dpkgopt=path-exclude=/usr/share/man/* --dpkgopt=path-exclude=/usr/share/info/*"
excluded="$excluded --dpkgopt=path-exclude=/usr/share/doc/* --dpkgopt=path-include=/usr/share/doc/*/copyright"

# $excluded is a list of options, its patterns for dpkg: split, not globbed here.
set -f
# shellcheck disable=SC2086
mmdebstrap --mode=root --variant=minbase --quiet $excluded \
  --include=systemd-sysv,udev,linux-image-amd64,initramfs-tools,cloud-init,mokutil,locales,openssh-server,ifupdown,isc-dhcp-client,netbase,iproute2,sudo,ca-certificates,ifenslave,vlan,net-tools \
  --customize-hook='echo "LABEL=root / ext4 defaults 0 1" > "$1/etc/fstab"' \
  --customize-hook='rm -f "$1"/etc/ssh/ssh_host_*_key* "$1/etc/hostname"; : > "$1/etc/machine-id"' \
  --customize-hook='printf "auto lo\niface lo inet loopback\nsource /etc/network/interfaces.d/*\n" > "$1/etc/network/interfaces"' \
  --customize-hook='printf "datasource_list: [ NoCloud, None ]\n" > "$1/etc/cloud/cloud.cfg.d/05-datasources.cfg"' \
  --customize-hook='printf "ssh_genkeytypes: [ ed25519, ecdsa ]\ngrub_dpkg:\n  enabled: false\n" > "$1/etc/cloud/cloud.cfg.d/06-first-boot.cfg"' \
  --customize-hook='printf "LANG=C.UTF-8\n" > "$1/etc/default/locale"' \
  bookworm "$root" "$mirror"
set +f

kernel=$(ls "$root"/boot/vmlinuz-* | head -n 1)
initrd=$(ls "$root"/boot/initrd.img-* | head -n 1)

# The root file system: what the tree holds and a third more, in 4 KiB blocks.
used_kib=$(du -sk "$root" | cut -f1)
root_mib=$(( used_kib * 4 / 3 / 1024 + 64 ))
mkfs.ext4 -q -L root -d "$root" "$work/root.img" "${root_mib}M"

# Secure Boot's chain, from Debian's packages (downloaded, not installed: their scripts would
# look for an EFI system to register with): shim as the removable path's loader, which starts
# grubx64.efi beside it; that GRUB (signed by Debian, which shim trusts) reads its config from
# /EFI/debian, the prefix built into it, and boots the kernel only if it is signed (Debian's is).
(cd "$work" && apt-get download -q=2 shim-signed grub-efi-amd64-signed)
for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$work/signed"; done
shim=$work/signed/usr/lib/shim/shimx64.efi.signed
grub=$work/signed/usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed

# The boot partition: kernel, initrd, syslinux for BIOS, shim and GRUB for UEFI, one command line.
# no_timer_check: the image boots under software emulation in the boot tier, where the kernel's
# IO-APIC timer check can count too few ticks and panic (lib/provisioning/boot/kernelArgs.ts, TIMER_CHECK_OFF).
cmdline="root=LABEL=root ro no_timer_check console=tty0 console=ttyS0,115200n8"
boot_mib=$(( ( $(stat -c %s "$kernel") + $(stat -c %s "$initrd") + $(stat -c %s "$shim") + $(stat -c %s "$grub") ) / 1048576 + 16 ))
mkfs.vfat -n BOOT -C "$work/boot.img" $(( boot_mib * 1024 )) > /dev/null
cat > "$work/syslinux.cfg" <<CFG
DEFAULT debian
TIMEOUT 1
PROMPT 0
LABEL debian
  LINUX /vmlinuz
  INITRD /initrd.img
  APPEND $cmdline
CFG
cat > "$work/grub.cfg" <<CFG
set timeout=0
echo 'Booting Debian from the disk'
linux /vmlinuz $cmdline
initrd /initrd.img
boot
CFG
export MTOOLS_SKIP_CHECK=1
mcopy -i "$work/boot.img" "$kernel" ::/vmlinuz
mcopy -i "$work/boot.img" "$initrd" ::/initrd.img
mcopy -i "$work/boot.img" "$work/syslinux.cfg" ::/syslinux.cfg
mmd -i "$work/boot.img" ::/EFI ::/EFI/BOOT ::/EFI/debian
mcopy -i "$work/boot.img" "$shim" ::/EFI/BOOT/BOOTX64.EFI
mcopy -i "$work/boot.img" "$grub" ::/EFI/BOOT/grubx64.efi
mcopy -i "$work/boot.img" "$work/grub.cfg" ::/EFI/debian/grub.cfg
syslinux --install "$work/boot.img"

# One disk: 1 MiB for the table, the boot partition (active, type EF so UEFI finds it), the root.
disk=$work/disk.raw
boot_sectors=$(( $(stat -c %s "$work/boot.img") / 512 ))
root_sectors=$(( $(stat -c %s "$work/root.img") / 512 ))
truncate -s $(( (2048 + boot_sectors + root_sectors) * 512 )) "$disk"
printf 'label: dos\nstart=2048, size=%s, type=ef, bootable\nstart=%s, size=%s, type=83\n' \
  "$boot_sectors" $(( 2048 + boot_sectors )) "$root_sectors" | sfdisk --quiet "$disk"
dd if=/usr/lib/syslinux/mbr/mbr.bin of="$disk" bs=440 count=1 conv=notrunc status=none
dd if="$work/boot.img" of="$disk" bs=512 seek=2048 conv=notrunc,sparse status=none
dd if="$work/root.img" of="$disk" bs=512 seek=$(( 2048 + boot_sectors )) conv=notrunc,sparse status=none
# Compressed as OUT's name says (the image installer unpacks both): zstd unpacks three times as fast
# as gzip on a machine that boots the installer (35 s against 101 s under emulation, docs/boot.md).
case "$out" in
  *.zst) zstd -q -T0 -9 -c "$disk" > "$out.partial" ;;
  *) gzip -1 -c "$disk" > "$out.partial" ;;
esac
mv "$out.partial" "$out"
