#!/bin/sh
# ipmi_sim's chassis_control program for a real VM (as virtualbmc maps IPMI onto libvirt): ipmi_sim
# runs it as "PROGRAM get NAME…" or "PROGRAM set NAME VALUE…". Power on starts the QEMU machine
# that $QEMU_ARGS describes (its serial console appended to $SERIAL_LOG, else $CHASSIS_STATE/serial.log), power off
# stops it, reset does both; the machine is on while its QEMU runs (an installer that powers off
# ends it). Every call is logged in $CHASSIS_STATE/calls.
state=${CHASSIS_STATE:?}
echo "$*" >> "$state/calls"
# On while its QEMU runs. An exited QEMU stays a zombie until whoever inherited it reaps it (seconds,
# here): kill -0 would still find it, so its state in /proc is read (Z: ended).
running() {
  pid=$(cat "$state/qemu.pid" 2>/dev/null) || return 1
  stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
  [ "$(printf '%s' "${stat##*) }" | cut -c1)" != Z ]
}
start() {
  running && return
  # A one-time boot device (the relay's `chassis bootdev … persistent: false`) applies to this start
  # only, as a server's firmware takes it: `default` (IPMI's "boot from the default hard drive")
  # puts the disks before the network this once; `pxe` is the machine's own order (network first).
  override=$(cat "$state/boot" 2>/dev/null)
  rm -f "$state/boot"
  args=$QEMU_ARGS
  [ "$override" = default ] && args=$(printf '%s' "$args" | sed 's/,bootindex=1\b/,bootindex=99/')
  # -nographic: SeaBIOS and iPXE write to the serial console only then. Its output is appended to
  # the log, and it holds none of ipmi_sim's pipes (ipmi_sim reads this program's output to its end).
  # shellcheck disable=SC2086 # args is a list of words
  "${QEMU:?}" $args -nographic </dev/null >>"${SERIAL_LOG:-$state/serial.log}" 2>&1 &
  echo $! > "$state/qemu.pid"
}
# A BMC answers a power command at once: QEMU is told to end (TERM) and, if it has not within 2 s,
# killed, so that the next start never finds the disks still held by the last machine.
ended_within_2s() { for _ in 1 2 3 4 5 6 7 8 9 10; do running || return 0; sleep 0.2; done; ! running; }
stop() {
  running && kill "$(cat "$state/qemu.pid")"
  ended_within_2s || { kill -9 "$(cat "$state/qemu.pid")"; ended_within_2s; }
  rm -f "$state/qemu.pid"
}
op=$1
shift
if [ "$op" = get ]; then
  for name in "$@"; do
    case "$name" in
      power) if running; then echo "power:1"; else echo "power:0"; fi ;;
      boot) echo "boot:$(cat "$state/boot" 2>/dev/null || echo default)" ;;
    esac
  done
  exit 0
fi
while [ $# -gt 1 ]; do
  case "$1:$2" in
    power:1) start ;;
    power:0) stop ;;
    reset:1) stop; start ;;
    boot:*) echo "$2" > "$state/boot" ;;
  esac
  shift 2
done
