// The overlay's boxes sit on the faces: vidpipe runs on real video (Megamind.avi) and
// the frames it writes are compared with the source around the faces OpenCV's Haar
// cascade finds there, which knows nothing of vidpipe's detector.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include "cli_runner.hpp"
#include "face_assets.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

std::vector<cv::Rect> haar_faces(const std::vector<std::uint8_t>& i420, int width, int height, int min_size) {
  cv::CascadeClassifier haar("/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml");
  EXPECT_FALSE(haar.empty());
  const cv::Mat yuv(height * 3 / 2, width, CV_8UC1, const_cast<std::uint8_t*>(i420.data()));
  cv::Mat bgr, gray;
  cv::cvtColor(yuv, bgr, cv::COLOR_YUV2BGR_I420);
  cv::cvtColor(bgr, gray, cv::COLOR_BGR2GRAY);
  std::vector<cv::Rect> faces;
  haar.detectMultiScale(gray, faces, 1.1, 5, 0, cv::Size(min_size, min_size));
  return faces;
}

// A pixel the overlay drew: far from the source and of the boxes' green (luma 173).
bool box_pixel(std::uint8_t source, std::uint8_t out) {
  return std::abs(int(source) - out) > 40 && out >= 160 && out <= 186;
}

cv::Rect scaled(const cv::Rect& r, double factor) {
  const double cx = r.x + r.width / 2.0, cy = r.y + r.height / 2.0;
  const double w = r.width * factor, h = r.height * factor;
  return {static_cast<int>(cx - w / 2), static_cast<int>(cy - h / 2), static_cast<int>(w), static_cast<int>(h)};
}

TEST(OverlayOnFaces, BoxesAreDrawnAroundTheFacesAndNowhereElse) {
  const std::string dir = test::scratch_dir();
  const std::string clip = dir + "/megamind-60.mp4", out = dir + "/megamind-boxes.mp4";
  ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -i '" + test::opencv_data("Megamind.avi") +
                              "' -an -frames:v 60 -c:v libx264 -crf 12 -pix_fmt yuv420p '" + clip + "'"),
            0);
  const auto r = test::vidpipe("run --set device=cpu --input " + clip + " --set sink.path=" + out +
                               " --set sink.crf=10 --set overlay.hud=false --set metrics.report=");
  ASSERT_EQ(r.code, 0) << r.output;
  const test::DecodedVideo source = test::decode_all(clip), result = test::decode_all(out);
  ASSERT_EQ(result.frames.size(), source.frames.size());
  const int w = source.width, h = source.height;
  int faces_checked = 0;
  for (std::size_t i = 0; i < source.frames.size(); i += 5) {
    const auto& s = source.frames[i];
    const auto& o = result.frames[i];
    // Every face Haar sees, small ones too, may carry a box and its label nearby.
    const std::vector<cv::Rect> near_faces = haar_faces(s, w, h, 60);
    long changed = 0, changed_near_faces = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        if (!box_pixel(s[y * w + x], o[y * w + x])) continue;
        ++changed;
        for (const cv::Rect& f : near_faces)
          if (scaled(f, 1.8).contains({x, y})) {
            ++changed_near_faces;
            break;
          }
      }
    EXPECT_GE(changed_near_faces, changed * 9 / 10) << "frame " << i << ": overlay drawn away from every face";
    // Each clear face (Haar at 120 px and up, which the detector finds: FaceDetection tests)
    // has a box line around it and an untouched middle.
    for (const cv::Rect& face : haar_faces(s, w, h, 120)) {
      const cv::Rect ring = scaled(face, 1.6), middle = scaled(face, 0.4);
      long in_ring = 0, in_middle = 0;
      for (int y = std::max(0, ring.y); y < std::min(h, ring.y + ring.height); ++y)
        for (int x = std::max(0, ring.x); x < std::min(w, ring.x + ring.width); ++x) {
          const bool diff = box_pixel(s[y * w + x], o[y * w + x]);
          in_ring += diff;
          in_middle += diff && middle.contains({x, y});
        }
      EXPECT_GT(in_ring, 2L * face.width) << "frame " << i << ": no box around the face at " << face;
      EXPECT_LT(in_middle, static_cast<long>(middle.area()) / 50) << "frame " << i << ": box drawn across the face " << face;
      ++faces_checked;
    }
  }
  EXPECT_GE(faces_checked, 8) << "too few Haar faces to judge";
}

}  // namespace
}  // namespace vidpipe
