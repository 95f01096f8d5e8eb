#!/usr/bin/env bash
# The bundled default input: the first 90 frames of opencv-doc's Megamind.avi (real
# faces, for the detector), scaled to 4K height and centred on a 3840x2160 frame.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p assets
if [ ! -s assets/sample-4k.mp4 ]; then
  echo "setup: making assets/sample-4k.mp4 (3840x2160, 90 frames of Megamind.avi)"
  ffmpeg -loglevel error -y -i /usr/share/doc/opencv-doc/examples/data/Megamind.avi -an \
    -vf "scale=-2:2160:flags=bicubic,pad=3840:2160:(ow-iw)/2:0,format=yuv420p" -frames:v 90 \
    -c:v libx264 -preset veryfast -crf 20 -colorspace bt709 -color_primaries bt709 -color_trc bt709 \
    assets/sample-4k.mp4.part.mp4
  mv assets/sample-4k.mp4.part.mp4 assets/sample-4k.mp4
fi
