#!/bin/sh
# Guest side of the end-to-end test (VividEndToEndTests): scand against vivid's looped HDMI camera.
# Prints sections "=== NAME" that the host test parses; frames come from /data/frames.raw.
set -u
sh /vivid-setup.sh > /tmp/setup.log 2>&1 || { cat /tmp/setup.log; exit 1; }

stream() {  # loop the generated frames into the HDMI output; they come back on /dev/video0
  v4l2-ctl -d /dev/video1 --stream-out-mmap --stream-from=/data/frames.raw --stream-loop > /dev/null 2>&1 &
  STREAMER=$!
}

stream
sleep 1
echo "=== devices"
scand devices --json --controls

echo "=== badcontrol"
# A value outside the control's range: the camera is not used, and the DEVICE event says which control and its range.
printf '[socket]\npath = "none"\n[camera.controls]\nbrightness = 999\n' > /tmp/bad.toml
OUT=/tmp/badcontrol.out
scand run --config /tmp/bad.toml --device /dev/video0 > "$OUT" 2> /dev/null &
SCAND=$!
i=0; while ! grep -q '"state":"waiting"' "$OUT" 2> /dev/null && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
kill -INT $SCAND; wait $SCAND
cat "$OUT"

echo "=== run"
scand run --device /dev/video0 --frames 40 --roi 0.5,0,0.5,1 2> /tmp/run.err
echo "=== run-status $?"
sed 's/^/stderr: /' /tmp/run.err | head -5

echo "=== replay"
# A recording of the real camera played back through the same pipeline.
scand record --device /dev/video0 --frames 10 /tmp/camera.rec 2> /tmp/record.err
echo "=== record-status $?"
scand run --source replay:/tmp/camera.rec --replay-pace lockstep --socket none --roi 0.5,0,0.5,1 2> /dev/null
echo "=== replay-status $?"

# Waits for events rather than fixed times: decoding in an emulated guest (TCG) takes a second or more a
# frame, more with a debug build, and starting scand takes seconds on a loaded host.
OUT=/tmp/unplug.out
# 0 while the file is not there yet (a scand started in the background may not have opened it): an empty
# count would end the wait at once with "bad number".
count() { n=$(grep -c "$1" "$OUT" 2> /dev/null); echo "${n:-0}"; }
await() {  # PATTERN AT-LEAST SECONDS
  i=0
  while [ "$(count "$1")" -lt "$2" ] && [ $i -lt "$3" ]; do sleep 1; i=$((i + 1)); done
}

echo "=== busy"
v4l2-ctl -d /dev/video0 --stream-mmap --stream-count=100000 > /dev/null 2>&1 &
HOLDER=$!
sleep 1
OUT=/tmp/busy.out
scand run --device /dev/video0 > "$OUT" 2> /dev/null &
SCAND=$!
await 'device busy' 1 60
kill -INT $SCAND; wait $SCAND
cat "$OUT"
kill $HOLDER 2> /dev/null; wait $HOLDER 2> /dev/null

echo "=== unplug"
OUT=/tmp/unplug.out
# [camera.controls]: set at open, and again after the replug (the test changes it in between); contrast set
# live over the socket (`scand controls`, as the setup page does) is set again after the replug too.
# vivid moves brightness's range with the input: 384...639 on HDMI 0 (input 3).
printf '[socket]\npath = "/tmp/scand.sock"\n[camera.controls]\nbrightness = 520\ncontrast = 130\n' > /tmp/controls.toml
control() {
  echo "control $1 $(v4l2-ctl -d /dev/video0 -C brightness | awk '{print $2}') $(v4l2-ctl -d /dev/video0 -C contrast | awk '{print $2}')" >> /tmp/controls.out
}
scand run --config /tmp/controls.toml --state-directory /tmp/state --device /dev/video0 --frame-timeout 1500 > /tmp/unplug.out 2> /tmp/unplug.err &
SCAND=$!
await '"class":"SCAN"' 1 90
control at-open
scand controls --socket /tmp/scand.sock --json > /tmp/controls.json 2>&1
scand controls --socket /tmp/scand.sock --set contrast=140 >> /tmp/controls.json 2>&1
echo "set-status $?" >> /tmp/controls.json
scand controls --socket /tmp/scand.sock --set brightness=999 >> /tmp/controls.json 2>&1
echo "refused-status $?" >> /tmp/controls.json
# All or nothing: brightness is set first, then vivid refuses enable_capture_cropping (it holds it while it
# streams, EBUSY): brightness is put back, and is not among what the daemon sets again after the replug.
scand controls --socket /tmp/scand.sock --set brightness=460 --set enable_capture_cropping=false >> /tmp/controls.json 2>&1
echo "held-status $?" >> /tmp/controls.json
control set-live
v4l2-ctl -d /dev/video0 -c brightness=400 -c contrast=100
control changed
v4l2-ctl -d /dev/video0 -c disconnect=1
echo "--- disconnected" > /dev/console
# vivid comes back once every handle is closed: the streamer's and scand's (scand closes on the error).
kill $STREAMER 2> /dev/null; wait $STREAMER 2> /dev/null
await '"state":"lost"' 1 30
sleep 3  # longer than forget_after: the same codes are new scans when they come back
stream
await '"state":"streaming"' 2 60
await '"class":"SCAN"' $(($(count '"class":"SCAN"') + 1)) 90
control after-replug
# Kept for restarts: written to the state directory, set at the next start although changed in between.
scand controls --socket /tmp/scand.sock --set brightness=450 --keep >> /tmp/controls.json 2>&1
echo "keep-status $?" >> /tmp/controls.json
kill -TERM $SCAND; wait $SCAND
echo "=== unplug-status $?"
cat /tmp/unplug.out
sed 's/^/stderr: /' /tmp/unplug.err | head -5
echo "=== controls"
cat /tmp/controls.json
sed 's/^/kept: /' /tmp/state/camera-controls.toml
v4l2-ctl -d /dev/video0 -c brightness=400 -c contrast=100
OUT=/tmp/restart.out
scand run --config /tmp/controls.toml --state-directory /tmp/state --device /dev/video0 > "$OUT" 2> /tmp/restart.err &
SCAND=$!
await '"state":"streaming"' 1 60
control after-restart
kill -TERM $SCAND; wait $SCAND
cat /tmp/controls.out
grep 'camera controls' /tmp/restart.err | sed 's/^/stderr: /'
kill $STREAMER 2> /dev/null
exit 0
