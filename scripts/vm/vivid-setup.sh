#!/bin/sh
# Guest side (busybox sh): wires vivid's HDMI output back into its HDMI input, so
# frames queued on the output node come back byte for byte on the capture node.
#   sh /vivid-setup.sh [WIDTHxHEIGHT [DV-TIMINGS-INDEX]]      (default 1280x720, index 4 = 720p25)
# The nodes are found by name (vivid-000-vid-cap/-out; with one vivid instance they are
# /dev/video0 and /dev/video1) and printed as "capture=/dev/videoN output=/dev/videoM ...".
set -eu
size=${1:-1280x720}
width=${size%x*} height=${size#*x}

node() {  # the /dev node whose sysfs name is $1
  for n in /sys/class/video4linux/video*; do
    [ "$(cat "$n/name")" = "$1" ] && { echo "/dev/${n##*/}"; return 0; }
  done
  echo "vivid-setup: no $1 node (is vivid loaded?)" >&2; return 1
}
VIVID_CAP=$(node vivid-000-vid-cap)
VIVID_OUT=$(node vivid-000-vid-out)

# The DV timings decide the size the HDMI ports accept; pick one of the right size.
index=${2:-}
if [ -z "$index" ] && [ "$size" = 1280x720 ]; then index=4; fi
# v4l2-ctl says why an ioctl failed on stdout: kept (in the caller's log), not discarded.
v4l2-ctl -d "$VIVID_CAP" -i 3     # HDMI 0 input
v4l2-ctl -d "$VIVID_OUT" -o 1     # HDMI 0 output
if [ -z "$index" ]; then
  index=$(v4l2-ctl -d "$VIVID_CAP" --list-dv-timings | awk -v w="$width" -v h="$height" '
    /Index:/ { i = $2 } /Active width:/ { aw = $3 } /Active height:/ { ah = $3 }
    /Frame format: progressive/ && aw == w && ah == h { print i; exit }')
  [ -n "$index" ] || { echo "vivid-setup: vivid has no progressive ${size} DV timings" >&2; exit 1; }
fi
v4l2-ctl -d "$VIVID_CAP" --set-dv-bt-timings index="$index"
v4l2-ctl -d "$VIVID_OUT" --set-dv-bt-timings index="$index"
v4l2-ctl -d "$VIVID_CAP" --set-fmt-video="width=$width,height=$height,pixelformat=YUYV"
v4l2-ctl -d "$VIVID_OUT" --set-fmt-video-out="width=$width,height=$height,pixelformat=YUYV"
# Without osd_text_mode=2 (None) vivid draws its counters over the looped frames.
v4l2-ctl -d "$VIVID_CAP" -c loop_video=1,osd_text_mode=2

echo "capture=$VIVID_CAP output=$VIVID_OUT dv-timings-index=$index"
v4l2-ctl -d "$VIVID_CAP" --get-fmt-video | sed 's/^/  cap: /'
v4l2-ctl -d "$VIVID_OUT" --get-fmt-video-out | sed 's/^/  out: /'
