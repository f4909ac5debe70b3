# Sourced by the microkernel's /init (init.sh): the commands of a node's life-cycle actions (issue 53,
# docs/lifecycle.md), with busybox and the programs the initramfs carries beside it (initramfs.ts):
# wipefs and blkdiscard (util-linux), nvme (nvme-cli), hdparm, dropbear. A program missing is said in
# the report, never guessed around.

# Adds a step's output to the device's answer, a line of its own.
note() { [ -n "$1" ] && answer="${answer:+$answer
}$1"; return 0; }

# A disk's serial: NVMe's from sysfs, a SCSI or SATA disk's from its VPD page 0x80 (what by-id names).
serial_of() {
  if [ -r "/sys/block/$1/device/serial" ]; then
    cat "/sys/block/$1/device/serial"
  elif [ -r "/sys/block/$1/device/vpd_pg80" ]; then
    tail -c +5 "/sys/block/$1/device/vpd_pg80" | tr -d '\000'
  fi 2> /dev/null | sed 's/^ *//; s/ *$//'
}

# Seconds since boot, to the hundredth (/proc/uptime's first field).
uptime_seconds() { cut -d ' ' -f 1 /proc/uptime; }

# One disk's entry of the erase report: a JSON object (json_string is init.sh's).
report_disk() { # dev model serial bytes mode method seconds result answer
  printf '{"disk":%s,"model":%s,"serial":%s,"bytes":%s,"mode":"%s","method":"%s","seconds":%s,"result":"%s","answer":%s}' \
    "$(printf '%s' "$1" | json_string)" "$(printf '%s' "$2" | json_string)" "$(printf '%s' "$3" | json_string)" \
    "$4" "$5" "$6" "$7" "$8" "$(printf '%s' "$9" | tail -c 500 | json_string)"
}

# Writes zeros over COUNT 512-byte sectors of DEV from sector SEEK, a MiB at a time where it can.
zero_sectors() { # dev seek count
  dev=$1 seek=$2 count=$3
  whole=$((count / 2048))
  if [ "$whole" -gt 0 ] && [ $((seek % 2048)) = 0 ]; then
    dd if=/dev/zero of="$dev" bs=1M seek=$((seek / 2048)) count="$whole" conv=fsync 2>&1 || return 1
    seek=$((seek + whole * 2048)) count=$((count - whole * 2048))
  fi
  [ "$count" = 0 ] || dd if=/dev/zero of="$dev" bs=512 seek="$seek" count="$count" conv=fsync 2>&1
}

# quick: every signature wipefs knows on each partition and on the disk (partition tables, file
# systems, RAID and LVM labels), then zeros over the first and last 8 MiB (the GPT's two copies, the
# MBR, boot loaders), then a discard of the whole device where it supports one. NIST 800-88 "clear"
# of the metadata only: the data blocks stay readable to anyone who looks for them.
quick_erase() { # dev name sectors
  dev=$1 name=$2 sectors=$3 method="zero-ends" answer=""
  if command -v wipefs > /dev/null; then
    for part in /sys/block/"$name"/"$name"*; do
      [ -e "$part/partition" ] && note "$(wipefs -a "/dev/${part##*/}" 2>&1)"
    done
    out=$(wipefs -a "$dev" 2>&1) || { note "$out"; return 1; }
    note "$out"
    method="wipe-signatures+zero-ends"
  fi
  ends=16384
  [ "$sectors" -lt $((ends * 2)) ] && ends=$((sectors / 2))
  # dd's record counts say nothing the report's bytes do not: only a failure's words are kept.
  out=$(zero_sectors "$dev" 0 "$ends" && zero_sectors "$dev" $((sectors - ends)) "$ends") || { note "$out"; return 1; }
  if [ "$(cat /sys/block/"$name"/queue/discard_max_bytes 2>/dev/null || echo 0)" != 0 ] && command -v blkdiscard > /dev/null; then
    out=$(blkdiscard -f "$dev" 2>&1) && method="$method+discard"
    note "$out"
  fi
  blockdev --rereadpt "$dev" 2> /dev/null
  return 0
}

# full: the device's own purge where it has one (NVMe Format with Secure Erase Settings: 2, a
# cryptographic erase, when the controller supports it, else 1, a user data erase; ATA SECURITY ERASE
# UNIT where the drive supports it and is not frozen), else zeros over every byte. Then quick, so no
# signature is left whatever the device's purge left behind.
full_erase() { # dev name sectors
  dev=$1 name=$2 sectors=$3 method="" answer=""
  case "$name" in
    nvme*)
      if command -v nvme > /dev/null; then
        ctrl=/dev/${name%n[0-9]*}
        fna=$(nvme id-ctrl "$ctrl" 2>/dev/null | sed -n 's/^fna *: *//p')
        ses=1
        [ -n "$fna" ] && [ $((fna & 4)) = 4 ] && ses=2
        out=$(nvme format "$dev" --ses=$ses --force 2>&1) && method="nvme-format-ses$ses"
        note "$out"
      else
        note "no nvme-cli in the microkernel"
      fi
      ;;
    sd*)
      if command -v hdparm > /dev/null && info=$(hdparm -I "$dev" 2>/dev/null) \
        && printf '%s' "$info" | grep -q 'supported: enhanced erase' && printf '%s' "$info" | grep -q 'not[[:space:]]*frozen'; then
        out=$(hdparm --user-master u --security-set-pass erase "$dev" 2>&1 && hdparm --user-master u --security-erase erase "$dev" 2>&1) \
          && method="ata-secure-erase"
        note "$out"
      fi
      ;;
  esac
  if [ -z "$method" ]; then
    out=$(zero_sectors "$dev" 0 "$sectors") || { note "$out"; return 1; }
    method="overwrite-zeros"
  fi
  full_method=$method full_answer=$answer
  quick_erase "$dev" "$name" "$sectors" || return 1
  method="$full_method" answer="$full_answer"
}

# erase-disks MODE: erases every disk of the machine (not a partition, CD, loop or RAM device),
# printing the erase report (a JSON array, a disk an entry); exits 1 when any disk was not erased.
erase_disks() {
  mode=$1
  case "$mode" in quick | full) ;; *) echo "[]"; return 2 ;; esac
  failed=0 first=1
  printf '['
  for sys in /sys/block/*; do
    name=${sys##*/}
    case "$name" in loop* | ram* | zram* | sr* | fd* | dm-* | md* | nbd*) continue ;; esac
    [ -e "$sys/device" ] || continue
    dev=/dev/$name sectors=$(cat "$sys/size") started=$(uptime_seconds)
    model=$(cat "$sys/device/model" 2>/dev/null | sed 's/ *$//') serial=$(serial_of "$name")
    result=erased method="" answer=""
    if [ "$(cat "$sys/ro")" = 1 ]; then
      result=failed answer="the device is read-only"
    elif [ "$sectors" = 0 ]; then
      result=failed answer="the device has no medium (0 bytes)"
    elif ! "${mode}_erase" "$dev" "$name" "$sectors" > /tmp/erase.out 2>&1; then
      result=failed
      note "$(tail -c 300 /tmp/erase.out)"
    fi
    [ "$result" = failed ] && failed=1
    seconds=$(awk -v a="$started" -v b="$(uptime_seconds)" 'BEGIN { printf "%.2f", b - a }')
    [ $first = 1 ] || printf ','
    first=0
    report_disk "$dev" "$model" "$serial" $((sectors * 512)) "$mode" "${method:-none}" "$seconds" "$result" "$answer"
    echo "$MARK: erase $dev ($mode): $result by ${method:-none} in ${seconds} s" > /dev/console
  done
  printf ']'
  return $failed
}

# rescue-ssh KEY: dropbear on port 22 for the operator's key (base64 of one authorized_keys line,
# so nothing the service hands out is parsed by a shell); password logins off. The loop then stops
# asking for commands and the microkernel stays up until the node is rebooted.
rescue_ssh() {
  case "$1" in "" | *[!A-Za-z0-9+/=]*) echo "rescue-ssh: the key must be base64"; return 2 ;; esac
  if ! command -v dropbear > /dev/null; then
    echo "The microkernel has no dropbear: it was built on a machine without dropbear-bin"
    return 126
  fi
  mkdir -p /root/.ssh /etc/dropbear /dev/pts
  mount -t devpts devpts /dev/pts 2> /dev/null
  grep -q '^root:' /etc/passwd 2> /dev/null || echo 'root:x:0:0:root:/root:/bin/sh' >> /etc/passwd
  echo /bin/sh > /etc/shells
  chmod 700 /root /root/.ssh
  printf '%s' "$1" | base64 -d > /root/.ssh/authorized_keys || return 1
  echo >> /root/.ssh/authorized_keys
  chmod 600 /root/.ssh/authorized_keys
  dropbear -R -s -p 22 2>&1 || return 1
  # The discovery loop stops asking for commands (were it to go on, thirty empty answers power the
  # machine off). A file: this runs in the loop's subshell, where a variable would not reach it.
  : > /tmp/rescue
  echo "$MARK: rescue: SSH on port 22 for the operator's key" > /dev/console
}
