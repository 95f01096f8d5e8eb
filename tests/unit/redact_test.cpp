#include <gtest/gtest.h>

#include "base/redact.hpp"

namespace vidpipe {
namespace {

TEST(Redact, PasswordsInUserInfoGoTheUserStays) {
  EXPECT_EQ(redacted_uri("rtsp://admin:hunter2@10.0.0.5:554/live"), "rtsp://admin:***@10.0.0.5:554/live");
  EXPECT_EQ(redacted_uri("rtsp://admin:p@ss:w0rd@cam/live"), "rtsp://admin:***@cam/live");  // '@' and ':' in it
  EXPECT_EQ(redacted_uri("srt://host:9000"), "srt://host:9000") << "a port is no password";
  EXPECT_EQ(redacted_uri("rtmp://user@host/app"), "rtmp://user@host/app") << "no password to hide";
}

TEST(Redact, SecretQueryValuesGoOthersStay) {
  EXPECT_EQ(redacted_uri("https://cdn/x.m3u8?token=abc&quality=high&X-Amz-Signature=f00#t=3"),
            "https://cdn/x.m3u8?token=***&quality=high&X-Amz-Signature=***#t=3");
  EXPECT_EQ(redacted_uri("srt://host:9000?passphrase=longsecret&latency=200"),
            "srt://host:9000?passphrase=***&latency=200");
}

TEST(Redact, PathsAreLeftAlone) {
  EXPECT_EQ(redacted_uri("/videos/a:b@c?token=x.mp4"), "/videos/a:b@c?token=x.mp4");
  EXPECT_EQ(redacted_uri("clip.mp4"), "clip.mp4");
  EXPECT_EQ(redacted_uri(""), "");
}

TEST(Redact, APasswordWithTheSchemeForgotten) {
  EXPECT_EQ(redacted_uri("viewer:pa55@host:9000"), "viewer:***@host:9000");
  EXPECT_EQ(redacted_uri("dir/me:x@home.mp4"), "dir/me:x@home.mp4");
}

// FFmpeg's own lines name the URL inside a sentence: each URL in it is redacted, the words
// around it kept.
TEST(Redact, EveryUrlInALineOfText) {
  EXPECT_EQ(redacted_text("Connection to tcp://u:pw@127.0.0.1:9?token=abc failed: Connection refused"),
            "Connection to tcp://u:***@127.0.0.1:9?token=*** failed: Connection refused");
  EXPECT_EQ(redacted_text("from 'rtsp://a:b@cam/x' and 'rtsp://c:d@cam/y'"), "from 'rtsp://a:***@cam/x' and 'rtsp://c:***@cam/y'");
  EXPECT_EQ(redacted_text("no url here: a:b@c"), "no url here: a:b@c");
  EXPECT_EQ(redacted_text("://odd"), "://odd");
  EXPECT_EQ(redacted_text(""), "");
}

}  // namespace
}  // namespace vidpipe
