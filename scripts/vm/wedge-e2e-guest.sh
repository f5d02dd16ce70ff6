#!/bin/sh
# Guest side of WedgeEndToEndTests' VM test, on a booted Debian 12 (systemd, no Swift, no network, python3-evdev):
# loads uinput and vivid, installs /vm-input/scand_*.deb with apt, enables scand-wedge.service, and for each
# layout in /vm-input/layouts sets [wedge] layout, restarts the wedge, reads the key events of the virtual
# keyboard it creates with python3-evdev while /vm-input/frames-LAYOUT.raw (three QR codes) streams into the
# camera. Prints sections "=== NAME" and "=== NAME-status N"; key events as "KEY CODE VALUE" lines.
set -u
now() { date +%s.%N; }
count() {  # FILE PATTERN: lines matching, 0 while FILE is not there yet (an empty count is "bad number")
  n=$(grep -c "$2" "$1" 2> /dev/null); echo "${n:-0}"
}
await() {  # FILE PATTERN COUNT SECONDS: until FILE has COUNT lines matching PATTERN
  i=0
  while [ "$(count "$1" "$2")" -lt "$3" ] && [ $i -lt "$4" ]; do sleep 1; i=$((i + 1)); done
  [ "$(count "$1" "$2")" -ge "$3" ]
}
stream() {  # FRAMES: loop them into vivid's HDMI output (replacing what streams)
  [ -z "${STREAMER:-}" ] || { kill "$STREAMER" 2> /dev/null; wait "$STREAMER" 2> /dev/null; }
  v4l2-ctl -d /dev/video1 --stream-out-mmap --stream-from="$1" --stream-loop > /dev/null 2>&1 &
  STREAMER=$!
}
cat > /tmp/read-keys.py << 'PY'
# The key events of the input device named argv[1], as the kernel delivers them to every reader (evdev).
# The kernel keeps 64 events per reader (32 keys at the wedge's 4 ms apart) and on overflow throws them away
# with a SYN_DROPPED, printed as DROPPED: a reader that fell behind, not a wedge that typed wrong.
import sys, time, evdev
deadline = time.time() + 60
device = None
while device is None and time.time() < deadline:
    device = next((d for d in map(evdev.InputDevice, evdev.list_devices()) if d.name == sys.argv[1]), None)
    if device is None:
        time.sleep(0.2)
if device is None:
    print("no device named", sys.argv[1], flush=True)
    sys.exit(1)
print("DEVICE", device.path, device.name, flush=True)
for event in device.read_loop():
    if event.type == evdev.ecodes.EV_KEY and event.value in (0, 1):
        print("KEY", event.code, event.value, flush=True)
    elif event.type == evdev.ecodes.EV_SYN and event.code == evdev.ecodes.SYN_DROPPED:
        print("DROPPED", flush=True)
PY

modprobe uinput && modprobe vivid && udevadm settle && sh /vm-input/vivid-setup.sh > /tmp/setup.log 2>&1 ||
  { echo "setup failed"; cat /tmp/setup.log; exit 1; }
stream /vm-input/blank.raw

echo "=== install"
cp /vm-input/scand_*.deb /tmp/
DEBIAN_FRONTEND=noninteractive apt-get install -y /tmp/scand_*.deb > /tmp/apt.log 2>&1
echo "=== install-status $?"
tail -n 3 /tmp/apt.log
udevadm settle
echo "=== uinput"
stat -c '%A %G %n' /dev/uinput
getent group scand-uinput
systemctl is-enabled scand-wedge.service
start=$(now)
for layout in $(cat /vm-input/layouts); do
  echo "=== layout-$layout"
  sed -i "/^\[wedge\]/,/^\[/ s/^layout = .*/layout = \"$layout\"/" /etc/scand/scand.toml
  grep '^layout = ' /etc/scand/scand.toml
  systemctl enable scand-wedge.service > /dev/null 2>&1
  systemctl restart scand-wedge.service
  sleep 2
  if [ "$(systemctl is-active scand-wedge.service)" != active ]; then
    echo "scand-wedge.service did not start"
    systemctl status --no-pager scand-wedge.service 2>&1 | tail -n 20
    journalctl -u scand-wedge --no-pager 2>&1 | grep -v 'thread priority' | tail -n 30
    ls -l /dev/uinput; id; /usr/bin/scand wedge --dry-run --config /etc/scand/scand.toml --state-file /tmp/p.json > /tmp/dry.log 2>&1 &
    sleep 3; kill $! 2> /dev/null; cat /tmp/dry.log
    exit 1
  fi
  # At real-time priority, as a display server reads its keyboards: in this emulated 2-vCPU guest the
  # decoder processes otherwise starve a reader at normal priority past the kernel's 64-event buffer.
  chrt -f 10 python3 /tmp/read-keys.py "scand keyboard wedge" > /tmp/keys-$layout.out 2>&1 &
  READER=$!
  await /tmp/keys-$layout.out '^DEVICE' 1 30
  sleep 1  # the wedge subscribed before the codes come
  stream /vm-input/frames-$layout.raw
  # Two of the three codes are typable: two Enters pressed.
  await /tmp/keys-$layout.out '^KEY 28 1$' "$(cat /vm-input/typed-$layout)" 120
  echo "=== layout-$layout-status $?"
  sleep 3  # anything more would come now
  stream /vm-input/blank.raw
  kill "$READER" 2> /dev/null; wait "$READER" 2> /dev/null
  cat /tmp/keys-$layout.out
  systemctl is-active scand-wedge.service
done
echo "=== timing layouts=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')s"
echo "=== log"
journalctl -u scand-wedge -o cat --no-pager | grep -v 'thread priority'
ls -l /var/lib/scand-wedge/ 2> /dev/null; cat /var/lib/scand-wedge/position.json
echo "=== security"
systemd-analyze security --no-pager scand-wedge.service | tail -n 1
echo "=== end"
exit 0
