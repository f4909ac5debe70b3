#!/bin/sh
# ipmi_sim's chassis_control program for the relay tests: ipmi_sim runs it as
# "PROGRAM get NAME…" (answer NAME:VALUE lines) or "PROGRAM set NAME VALUE…". It keeps each value
# in a file of $CHASSIS_STATE and logs every call, so a test can see what the BMC was told. A set
# takes $CHASSIS_DELAY seconds when given (a slow BMC: a test stops a relay in the middle of one).
state=${CHASSIS_STATE:?}
echo "$*" >> "$state/calls"
op=$1
shift
if [ "$op" = get ]; then
  for name in "$@"; do
    case "$name" in
      power) echo "power:$(cat "$state/power" 2>/dev/null || echo 0)" ;;
      boot) echo "boot:$(cat "$state/boot" 2>/dev/null || echo default)" ;;
    esac
  done
else
  [ -n "$CHASSIS_DELAY" ] && sleep "$CHASSIS_DELAY"
  while [ $# -gt 1 ]; do
    echo "$2" > "$state/$1"
    shift 2
  done
fi
