// SegmentDealer: which decoder of a split file takes which segment, by measured rates. The
// times are passed in (no sleeps); the last test plays whole runs on a simulated clock.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <vector>

#include "source/segment_dealer.hpp"

namespace vidpipe {
namespace {

TEST(SegmentDealer, BeforeEveryRateIsKnownSegmentsGoLowestFirst) {
  SegmentDealer dealer(3, 10, false);
  EXPECT_EQ(dealer.claim(0, 0), 0);
  EXPECT_EQ(dealer.claim(1, 0), 1);
  EXPECT_EQ(dealer.claim(2, 0), 2);
  dealer.finished(1, 30, 1.0);  // decoder 1 first: it takes the next, whatever the order
  EXPECT_EQ(dealer.claim(1, 1.0), 3);
  dealer.finished(0, 30, 1.1);
  EXPECT_EQ(dealer.claim(0, 1.1), 4);
}

// A CPU decoder beside two NVDEC sessions (reader.decoders: [cpu, nvdec, nvdec]): with the
// kinds' expected rates the sessions go ahead from their first claim, rather than taking
// segments 1 and 2 and holding the CPU decoder's reading up while it waits on them.
TEST(SegmentDealer, ExpectedRatesSendSlowDecodersAheadFromTheFirstClaim) {
  SegmentDealer dealer(3, 100, false, {2.5, 1.0, 1.0});
  EXPECT_EQ(dealer.claim(0, 0), 0);
  // While a session decodes one segment the others read 3.5: it starts 4 ahead.
  EXPECT_EQ(dealer.claim(1, 0), 4);
  EXPECT_EQ(dealer.claim(2, 0), 5);
  dealer.finished(0, 30, 0.1);
  EXPECT_EQ(dealer.claim(0, 0.1), 1) << "the CPU decoder fills in below them";
  // Once measured, a decoder's own rate replaces the expected one: here the session proves
  // as fast as the CPU decoder, so it looks no further ahead than the next free segment
  // after its own (it never goes back in the file).
  dealer.finished(1, 30, 0.1);
  EXPECT_EQ(dealer.claim(1, 0.1), 6);
}

TEST(SegmentDealer, ASlowDecoderTakesASegmentFarEnoughAheadAndTheFastOnesFillIn) {
  SegmentDealer dealer(2, 100, false);
  ASSERT_EQ(dealer.claim(0, 0), 0);  // fast: 30 frames in 0.1 s
  ASSERT_EQ(dealer.claim(1, 0), 1);  // slow: 30 frames in 0.3 s
  EXPECT_EQ(dealer.owner(0), 0);     // the fan reads segment 0
  dealer.finished(0, 30, 0.1);
  EXPECT_EQ(dealer.claim(0, 0.1), 2);
  EXPECT_EQ(dealer.owner(1), 1);
  dealer.finished(1, 30, 0.3);
  // Its lane is free once segment 1 is read; while it decodes one more segment the fast one
  // decodes three (3 and 4 after its 2): it takes 5.
  EXPECT_EQ(dealer.claim(1, 0.3), 5);
  dealer.finished(0, 30, 0.2);
  EXPECT_EQ(dealer.claim(0, 0.2), 3) << "the segments the slow one passed over";
  dealer.finished(0, 30, 0.3);
  EXPECT_EQ(dealer.claim(0, 0.3), 4);
  dealer.finished(0, 30, 0.4);
  EXPECT_EQ(dealer.claim(0, 0.4), 6) << "and on past the slow one's";
}

TEST(SegmentDealer, TimeBlockedInTheLaneIsNotCountedAgainstARate) {
  SegmentDealer dealer(2, 100, false);
  dealer.claim(0, 0);
  dealer.claim(1, 0);
  dealer.blocked(0, 0.9);  // waited 0.9 s for room: it decoded for 0.1 s
  dealer.finished(0, 30, 1.0);
  dealer.finished(1, 30, 1.0);
  const auto figures = dealer.figures();
  EXPECT_DOUBLE_EQ(figures[0].fps(), 300.0);
  EXPECT_DOUBLE_EQ(figures[1].fps(), 30.0);
}

TEST(SegmentDealer, NoSegmentIsLeftToNobody) {
  SegmentDealer dealer(2, 6, false);
  dealer.claim(0, 0);
  dealer.claim(1, 0);
  dealer.finished(0, 30, 0.1);
  dealer.finished(1, 30, 1.0);
  dealer.ended(0);  // the fast one is gone (a stop, an error): the slow one skips nothing
  EXPECT_EQ(dealer.claim(1, 1.0), 2);
  SegmentDealer tail(2, 3, false);
  tail.claim(0, 0);
  tail.claim(1, 0);
  tail.finished(0, 30, 0.1);
  tail.finished(1, 30, 1.0);
  EXPECT_EQ(tail.claim(1, 1.0), 2) << "nothing lies far enough ahead: the lowest free one";
  EXPECT_EQ(tail.claim(0, 1.0), -1);
  EXPECT_EQ(tail.owner(3), -1) << "past the file's end";
}

TEST(SegmentDealer, ADecoderWithoutARateLooksAheadABoundedWayEvenOnALoopingFile) {
  SegmentDealer dealer(2, 3, true);
  dealer.claim(0, 0);
  dealer.claim(1, 0);
  dealer.finished(0, 30, 0.1);
  dealer.finished(1, 0, 1.0);  // its segment decoded no frame: no rate at all
  EXPECT_EQ(dealer.claim(1, 1.0), 2 + static_cast<std::int64_t>(SegmentDealer::max_ahead));
}

TEST(SegmentDealer, ALoopingFilesSegmentsGoOnAndAClosedDealerStopsTheReading) {
  SegmentDealer dealer(2, 2, true);
  EXPECT_EQ(dealer.claim(0, 0), 0);
  EXPECT_EQ(dealer.claim(1, 0), 1);
  dealer.finished(0, 30, 0.1);
  EXPECT_EQ(dealer.claim(0, 0.1), 2) << "the next pass's first segment";
  dealer.close();
  EXPECT_EQ(dealer.claim(1, 0.2), -1);
  EXPECT_EQ(dealer.owner(7), -1) << "closed: nobody waits for a segment that will not come";
}

// Decoders of given rates (frames/s) and lanes (frames each may have decoded ahead of the
// reading) decode 60 segments of 30 frames; the reading takes frames in file order as soon as
// they are there. Returns the simulated seconds to read them all, or -1 if it never ends.
double simulated_run(const std::vector<double>& rates, const std::vector<std::size_t>& lanes, bool use_dealer) {
  constexpr std::int64_t segments = 60, frames_per_segment = 30;
  constexpr double step = 0.0005;
  const int decoders = static_cast<int>(rates.size());
  SegmentDealer dealer(decoders, segments, false);
  struct Decoder {
    std::int64_t segment = -1, made = 0;  // its segment, and how many of its frames it made
    double progress = 0;                  // towards the next frame
    std::deque<std::int64_t> lane;        // made and not yet read, by segment
  };
  std::vector<Decoder> d(static_cast<std::size_t>(decoders));
  auto next_segment = [&](int k, std::int64_t after, double now) -> std::int64_t {
    if (use_dealer) {
      if (after >= 0) dealer.finished(k, frames_per_segment, now);
      return dealer.claim(k, now);
    }
    const std::int64_t s = after < 0 ? k : after + decoders;  // round-robin
    return s < segments ? s : -1;
  };
  for (int k = 0; k < decoders; ++k) d[k].segment = next_segment(k, -1, 0);
  std::int64_t reading = 0, read_of_segment = 0;
  for (double now = step; now < 600; now += step) {
    for (int k = 0; k < decoders; ++k) {
      Decoder& dk = d[k];
      if (dk.segment < 0) continue;
      if (dk.lane.size() >= lanes[k]) {
        if (use_dealer) dealer.blocked(k, step);
        continue;
      }
      for (dk.progress += rates[k] * step; dk.progress >= 1 && dk.lane.size() < lanes[k]; dk.progress -= 1) {
        dk.lane.push_back(dk.segment);
        if (++dk.made == frames_per_segment) {
          dk.segment = next_segment(k, dk.segment, now);
          dk.made = 0;
          if (dk.segment < 0) break;
        }
      }
    }
    for (bool took = true; took;) {
      took = false;
      for (Decoder& dk : d)
        if (!dk.lane.empty() && dk.lane.front() == reading) {
          dk.lane.pop_front();
          took = true;
          if (++read_of_segment == frames_per_segment) {
            read_of_segment = 0;
            if (++reading == segments) return now;
            if (use_dealer) dealer.reading(reading);
          }
        }
    }
  }
  return -1;
}

TEST(SegmentDealer, ASlowDecoderBesideAFastOneAddsItsRateInsteadOfHoldingItBack) {
  // A fast decoder with a short lane (host frames) and a decoder a third as fast with a whole
  // segment of lane (an NVDEC session's device memory).
  const double fast_alone = simulated_run({300}, {4}, false);
  const double round_robin = simulated_run({300, 100}, {4, 31}, false);
  const double dealt = simulated_run({300, 100}, {4, 31}, true);
  ASSERT_GT(fast_alone, 0);
  ASSERT_GT(round_robin, 0);
  ASSERT_GT(dealt, 0) << "the reading waited for ever";
  EXPECT_GT(round_robin, fast_alone) << "round-robin: the slow one holds the fast one back";
  // 400 frames/s between them would read the 1,800 frames in 4.5 s, against 6 s alone (5.1 s
  // when this was written: the first round goes round-robin, before the rates are known).
  EXPECT_LT(dealt, fast_alone * 0.9) << "fast alone " << fast_alone << " s, dealt " << dealt << " s";
  // The case: the CPU decoder (386 fps on 16 threads, a host lane) and two NVDEC
  // sessions (~120 fps each of 4K H.264, device lanes of a segment): 626 fps if nothing waits.
  const double cpu_alone = simulated_run({386}, {4}, false);
  const double mixed = simulated_run({386, 120, 120}, {4, 31, 31}, true);
  EXPECT_LT(mixed, cpu_alone / 1.3) << "CPU alone " << cpu_alone << " s, with two NVDEC sessions " << mixed << " s";
  // Equal decoders: no worse than round-robin.
  EXPECT_LE(simulated_run({200, 200}, {31, 31}, true), simulated_run({200, 200}, {31, 31}, false) * 1.05);
}

}  // namespace
}  // namespace vidpipe
