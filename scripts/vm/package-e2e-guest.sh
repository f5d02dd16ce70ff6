#!/bin/sh
# Guest side of PackageEndToEndTests, on a booted Debian 12 (systemd, no Swift, no network): installs
# /vm-input/scand_*.deb with apt, then checks the service with vivid's looped HDMI camera. Prints sections
# "=== NAME" and "=== NAME-status N" that the host test parses. Frames: /vm-input/frames-{a,b,c}.raw, each
# with one QR code in the left half of the frame and one in the right half, different payloads per file.
set -u
SOCK=/run/scand/scand.sock
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
await() {  # FILE PATTERN SECONDS: until FILE has a line matching PATTERN
  i=0
  while ! grep -q "$2" "$1" 2> /dev/null && [ $i -lt "$3" ]; do sleep 1; i=$((i + 1)); done
  grep -q "$2" "$1" 2> /dev/null
}
stream() {  # FRAMES: loop them into vivid's HDMI output (replacing what streams); they come back on /dev/video0
  [ -z "${STREAMER:-}" ] || { kill "$STREAMER" 2> /dev/null; wait "$STREAMER" 2> /dev/null; }
  v4l2-ctl -d /dev/video1 --stream-out-mmap --stream-from="$1" --stream-loop > /dev/null 2>&1 &
  STREAMER=$!
}
watch_as() {  # USER OUT CLASSES: a subscriber running as USER with USER's groups
  setpriv --reuid="$1" --regid="$1" --init-groups scand watch --socket $SOCK --classes "$3" > "$2" 2>&1 &
  WATCHER=$!
  sleep 2  # subscribed before the scene changes
}
unwatch() { kill "$WATCHER" 2> /dev/null; wait "$WATCHER" 2> /dev/null; }

modprobe vivid && udevadm settle && sh /vm-input/vivid-setup.sh > /tmp/setup.log 2>&1 ||
  { echo "camera setup failed"; cat /tmp/setup.log; exit 1; }
stream /vm-input/frames-a.raw

echo "=== install"
cp /vm-input/scand_*.deb /tmp/
start=$(now)
DEBIAN_FRONTEND=noninteractive apt-get install -y /tmp/scand_*.deb > /tmp/apt.log 2>&1
echo "=== install-status $?"
installed=$(since "$start")
tail -n 5 /tmp/apt.log
# The service's events go to the journal too: its first SCAN, with the journal's time stamp.
first_scan() { journalctl -u scand -o short-unix --no-pager | grep -m 1 '"class":"SCAN"'; }
i=0
while [ -z "$(first_scan)" ] && [ $i -lt 240 ]; do sleep 1; i=$((i + 1)); done
if [ -z "$(first_scan)" ]; then
  echo "no SCAN within 240 s of the install"; systemctl status --no-pager scand
  journalctl -u scand -u scand.socket --no-pager | grep -v 'thread priority' | tail -n 40; exit 1
fi
echo "=== timing install=${installed}s first-scan=$(first_scan | awk -v a="$start" '{ printf "%.1f", $1 - a }')s"
echo "=== state"
systemctl is-active scand.service scand.socket
systemctl is-enabled scand.service scand.socket
stat -c '%A %G %n' $SOCK
getent group scand-clients
echo "=== first"
first_scan | sed 's/^[^{]*//'

echo "=== member"
useradd --create-home --groups scand-clients kiosk
watch_as kiosk /tmp/member.out SCAN
stream /vm-input/frames-b.raw
await /tmp/member.out 'frames-b left' 120 && await /tmp/member.out 'frames-b right' 60
unwatch
cat /tmp/member.out

echo "=== outsider"
useradd --create-home outsider
setpriv --reuid=outsider --regid=outsider --init-groups scand watch --socket $SOCK --status 2>&1
echo "=== outsider-status $?"

echo "=== reload"
pid=$(systemctl show -P MainPID scand)
sed -i 's/^roi = .*/roi = [0.5, 0.0, 0.5, 1.0]/' /etc/scand/scand.toml
systemctl reload scand
echo "=== reload-status $?"
i=0
while ! journalctl -u scand --no-pager | grep -q 'configuration reloaded' && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
journalctl -u scand --no-pager | grep -o 'configuration reloaded' | head -n 1
echo "same-pid $([ "$pid" = "$(systemctl show -P MainPID scand)" ] && echo yes || echo no)"
watch_as kiosk /tmp/reload.out SCAN
stream /vm-input/frames-c.raw
await /tmp/reload.out 'frames-c right' 120
sleep 10  # frames keep coming: the left code would have been read by now if the ROI had not changed
unwatch
cat /tmp/reload.out

echo "=== restart"
pid=$(systemctl show -P MainPID scand)
systemctl restart scand
echo "=== restart-status $?"
systemctl is-active scand
echo "new-pid $([ "$pid" != "$(systemctl show -P MainPID scand)" ] && echo yes || echo no)"
watch_as kiosk /tmp/restart.out SCAN  # the scene in view was read before this subscription: a new one
stream /vm-input/frames-a.raw
await /tmp/restart.out 'frames-a right' 120
sleep 5
unwatch
cat /tmp/restart.out

echo "=== unplug"
watch_as kiosk /tmp/unplug.out DEVICE,SCAN
# vivid comes back once every handle is closed: the streamer's and scand's (scand closes on the error).
# Under load the disconnect has gone unnoticed once in a few runs: it is then pulled again, said so.
for try in 1 2 3; do
  v4l2-ctl -d /dev/video0 -c disconnect=1 || echo "disconnect: v4l2-ctl status $?"
  kill "$STREAMER" 2> /dev/null; wait "$STREAMER" 2> /dev/null; STREAMER=
  await /tmp/unplug.out '"state":"lost"' 20 && break
  echo "disconnect $try unnoticed: $(dmesg | grep -i vivid | tail -n 3 | tr '\n' ' ')"
  stream /vm-input/frames-a.raw
done
sleep 3
stream /vm-input/frames-b.raw
i=0
until awk '/"state":"lost"/ { lost = 1 } lost && /"class":"SCAN"/ { found = 1 } END { exit !found }' /tmp/unplug.out ||
  [ $i -ge 120 ]; do sleep 1; i=$((i + 1)); done
unwatch
cat /tmp/unplug.out
systemctl is-active scand

echo "=== journal"
journalctl -u scand -u scand.socket --no-pager | grep -v 'thread priority' | tail -n 30

echo "=== security"
systemd-analyze security --no-pager scand.service | tail -n 1

echo "=== purge"
kill "$STREAMER" 2> /dev/null
DEBIAN_FRONTEND=noninteractive apt-get purge -y scand > /tmp/purge.log 2>&1
echo "=== purge-status $?"
systemctl daemon-reload
echo "package: $(dpkg-query -W -f='${db:Status-Status}' scand 2> /dev/null || echo none)"
echo "units: $(systemctl list-units --all --no-legend 'scand*' | wc -l)"
echo "processes: $(cat /proc/[0-9]*/comm 2> /dev/null | grep -c '^scand$')"
getent group scand-clients
# Every file or directory named after scand outside the test's own folders.
find / -xdev \( -path /vm-input -o -path /home -o -path /tmp -o -path /proc -o -path /sys \) -prune \
  -o -name '*scand*' -print
find /run -name '*scand*'
echo "=== end"
exit 0
