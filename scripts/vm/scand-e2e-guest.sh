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
scand devices --json

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

echo "=== busy"
v4l2-ctl -d /dev/video0 --stream-mmap --stream-count=1000 > /dev/null 2>&1 &
HOLDER=$!
sleep 1
timeout -s INT 4 scand run --device /dev/video0 2> /dev/null
kill $HOLDER 2> /dev/null; wait $HOLDER 2> /dev/null

echo "=== unplug"
scand run --device /dev/video0 --frame-timeout 1500 > /tmp/unplug.out 2> /tmp/unplug.err &
SCAND=$!
sleep 5
v4l2-ctl -d /dev/video0 -c disconnect=1
echo "--- disconnected" > /dev/console
# vivid comes back once every handle is closed: the streamer's and scand's (scand closes on the error).
kill $STREAMER 2> /dev/null; wait $STREAMER 2> /dev/null
sleep 4
stream
sleep 10
kill -TERM $SCAND; wait $SCAND
echo "=== unplug-status $?"
cat /tmp/unplug.out
sed 's/^/stderr: /' /tmp/unplug.err | head -5
kill $STREAMER 2> /dev/null
exit 0
