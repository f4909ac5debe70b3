#!/usr/bin/env bash
# UEFI HTTP Boot with no TFTP anywhere, as a site without iPXE in its NICs would boot against
# the service: OVMF's own HTTP boot client gets an iPXE EFI binary over HTTP (DHCP vendor class
# HTTPClient), iPXE then gets the profiles URL (DHCP option 175), and the machine is discovered
# with the default settings: the discovery profile boots the microkernel that `npm run
# microkernel` published, which reports the VM's hardware (its dmi catalog names QEMU).
#
# Needs root (a tap device), and Debian's qemu-system-x86, ovmf, ipxe, busybox-static and
# dnsmasq-base. The boot tier runs it (tests/boot/uefiHttpBoot.test.ts) where it runs as root.
# Only a private tap network (10.99.0.0/24) on this host is used.
#
#   sudo scripts/uefiHttpBoot.sh            # prints the serial console; ends when discovery has
set -euo pipefail
cd "$(dirname "$0")/.."

TAP=tapboot HOST_IP=10.99.0.1 API_PORT=${API_PORT:-3480} FILE_PORT=${FILE_PORT:-8081} LAMBDA_PORT=${LAMBDA_PORT:-3482} WEBSOCKET_PORT=${WEBSOCKET_PORT:-3483}
MAC=${MAC:-52:54:00:c0:ff:01}
# Debian's iPXE (2019): ipxe.efi's own SNP use receives nothing after OVMF's HTTP boot (RX:0);
# snponly.efi, which only drives the firmware's SNP, works.
IPXE_EFI=/usr/lib/ipxe/snponly.efi
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  ip link del "$TAP" 2>/dev/null || true
  rm -rf "$work" .esbuild-http-boot
}
trap cleanup EXIT

# A tap left by a run that was killed before its clean-up (its address would route this run's
# answers to a dead device) goes first.
ip link del "$TAP" 2>/dev/null || true
ip tuntap add dev "$TAP" mode tap
ip addr add "$HOST_IP/24" dev "$TAP"
# An IPv6 prefix (unique local) that dnsmasq advertises: on an IPv4-only network iPXE waits about
# 13 s for a router advertisement before it says its network is configured (snponly.efi spins
# the CPU meanwhile), as it would at a site (docs/boot.md).
ip addr add fd00:99::1/64 dev "$TAP" nodad
ip link set "$TAP" up

cp "$IPXE_EFI" "$work/snponly.efi"
busybox httpd -f -p "$HOST_IP:$FILE_PORT" -h "$work" >"$work/http.log" 2>&1 &
pids+=($!)

# The DHCP settings a site uses (see the README, "Boot a real machine").
dnsmasq --no-daemon --conf-file=/dev/null --port=0 --interface="$TAP" --bind-interfaces --except-interface=lo \
  --dhcp-range=10.99.0.50,10.99.0.99,12h \
  --enable-ra --dhcp-range=::,constructor:"$TAP",ra-only \
  --dhcp-match=set:ipxe,175 \
  --dhcp-boot=tag:ipxe,"http://$HOST_IP:$API_PORT/api/current/profiles" \
  --dhcp-vendorclass=set:efihttp,HTTPClient \
  --dhcp-option-force=tag:efihttp,60,HTTPClient \
  --dhcp-boot=tag:efihttp,tag:!ipxe,"http://$HOST_IP:$FILE_PORT/snponly.efi" \
  --log-dhcp >"$work/dnsmasq.log" 2>&1 &
pids+=($!)

HOST=$HOST_IP PORT=$API_PORT LAMBDA_PORT=$LAMBDA_PORT WEBSOCKET_PORT=$WEBSOCKET_PORT API_SERVER="http://$HOST_IP:$API_PORT" DEMO_NODES=off \
  ESBUILD_WORK_FOLDER=".esbuild-http-boot" node node_modules/serverless/bin/serverless.js offline --stage local >"$work/offline.log" 2>&1 &
offline=$!
pids+=("$offline")
until grep -q "Server ready" "$work/offline.log"; do
  kill -0 "$offline" 2>/dev/null || { echo "serverless offline did not start:"; tail -20 "$work/offline.log"; exit 1; }
  sleep 0.5
done
node_modules/.bin/tsx microkernel/cli.ts --api "http://$HOST_IP:$API_PORT"

cp /usr/share/OVMF/OVMF_VARS_4M.fd "$work/vars.fd"
# romfile= leaves the NIC without iPXE, so the firmware's own HTTP boot client does the work.
# The firmware's PXE is off (OVMF's fw_cfg switches), as on a server set to boot by HTTP only:
# otherwise it first waits out PXE over IPv4 and IPv6, about two minutes, before HTTP.
qemu-system-x86_64 -accel tcg -machine q35 -m 512 -nographic -monitor none -no-reboot \
  -fw_cfg name=opt/org.tianocore/IPv4PXESupport,string=n -fw_cfg name=opt/org.tianocore/IPv6PXESupport,string=n \
  -drive if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd \
  -drive if=pflash,format=raw,unit=1,file="$work/vars.fd" \
  -netdev tap,id=n0,ifname="$TAP",script=no,downscript=no \
  -device virtio-net-pci,netdev=n0,mac="$MAC",romfile= >"$work/serial.log" 2>&1 &
qemu=$!
pids+=("$qemu")
for _ in $(seq 1 "${TIMEOUT:-300}"); do
  grep -q "MICROKERNEL: \(told to reboot\|FAILED\)" "$work/serial.log" && sleep 2 && break
  kill -0 "$qemu" 2>/dev/null || break
  sleep 1
done
kill "$qemu" 2>/dev/null || true
sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' "$work/serial.log" | grep -v '^\s*$' | grep -v 'Downloading\.\.\.' | tail -20
echo
dmi=$(curl -s "http://$HOST_IP:$API_PORT/api/1.1/nodes/$MAC/catalogs/dmi")
if grep -q "MICROKERNEL: told to reboot" "$work/serial.log" && echo "$dmi" | grep -q '"Manufacturer":"QEMU"'; then
  echo "UEFI HTTP Boot: discovered $MAC with no TFTP; its dmi catalog: $(echo "$dmi" | head -c 300)"
else
  echo "UEFI HTTP Boot did not reach discovery; dnsmasq said:" && tail -20 "$work/dnsmasq.log"
  exit 1
fi

