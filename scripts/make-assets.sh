#!/usr/bin/env bash
# The bundled default input: a short 4K H.264 clip made with ffmpeg's test pattern
# (moving, with noise, so it is neither trivially compressible nor static).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p assets
if [ ! -s assets/sample-4k.mp4 ]; then
  echo "setup: making assets/sample-4k.mp4 (3840x2160, 60 frames)"
  ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=3840x2160:rate=30 -vf noise=alls=12:allf=t \
    -frames:v 60 -c:v libx264 -preset veryfast -b:v 30M -pix_fmt yuv420p assets/sample-4k.mp4.part.mp4
  mv assets/sample-4k.mp4.part.mp4 assets/sample-4k.mp4
fi
