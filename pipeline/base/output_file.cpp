#include "base/output_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <utility>

#include "base/errors.hpp"

namespace vidpipe {
namespace {

constexpr std::size_t flush_at_bytes = 1 << 16;

}  // namespace

bool is_special_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

std::string temporary_path_for(const std::string& path) {
  // The pid keeps two runs writing the same output apart, and a killed run's leftover
  // from being taken for this one's.
  const std::string suffix = "." + std::to_string(getpid()) + ".part";
  const std::filesystem::path p(path);
  const std::string name = p.filename().string();
  // A name near the file system's 255-byte limit has no room for the suffix: shorten it, with
  // a hash of the whole name so that two such outputs in one folder still differ.
  constexpr std::size_t name_max = 255;
  if (name.size() + suffix.size() <= name_max) return path + suffix;
  const std::string hash = fmt::format("~{:08x}", static_cast<std::uint32_t>(std::hash<std::string>{}(name)));
  return (p.parent_path() / (name.substr(0, name_max - suffix.size() - hash.size()) + hash + suffix)).string();
}

UniqueFd open_fifo_writer(const std::string& path, const std::string& what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISFIFO(st.st_mode)) return UniqueFd();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(fifo_reader_wait_s);
  while (true) {
    // O_NONBLOCK: the open fails with ENXIO instead of blocking while no reader is there.
    UniqueFd writer(::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC));
    if (writer.valid()) {
      // Writes block again once opened: a slow reader slows the run, it does not fail it.
      const int flags = ::fcntl(writer.get(), F_GETFL);
      if (flags >= 0 && ::fcntl(writer.get(), F_SETFL, flags & ~O_NONBLOCK) == 0) return writer;
    }
    if (errno != ENXIO || std::chrono::steady_clock::now() > deadline)
      throw OutputError(fmt::format("cannot write {} '{}': {}", what, path,
                                    errno == ENXIO ? fmt::format("it is a named pipe and nothing read it within {:.0f} s",
                                                                 fifo_reader_wait_s)
                                                   : std::strerror(errno)));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

OutputFile::OutputFile(std::string path, std::string what, unsigned mode)
    : path_(std::move(path)), what_(std::move(what)), in_place_(is_special_file(path_)) {
  temp_ = in_place_ ? path_ : temporary_path_for(path_);
  if (in_place_) fd_ = open_fifo_writer(path_, what_).release();
  if (fd_ < 0) fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, static_cast<mode_t>(mode));
  if (fd_ < 0) fail(errno);
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!in_place_ && !temp_.empty()) std::remove(temp_.c_str());
}

void OutputFile::write(std::string_view bytes) {
  buffer_.append(bytes);
  if (buffer_.size() >= flush_at_bytes) flush_buffer();
}

void OutputFile::flush_buffer() {
  std::string_view left = buffer_;
  while (!left.empty()) {
    const ssize_t n = ::write(fd_, left.data(), left.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(errno);
    left.remove_prefix(static_cast<std::size_t>(n));
  }
  buffer_.clear();
}

void OutputFile::commit() {
  flush_buffer();
  const int fd = std::exchange(fd_, -1);
  // close() is where NFS and some full disks report the failed write.
  if (::close(fd) != 0) fail(errno);
  if (!in_place_ && std::rename(temp_.c_str(), path_.c_str()) != 0) fail(errno);
  temp_.clear();  // in place now: nothing to remove
}

void OutputFile::fail(int error) {
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
  if (!in_place_ && !temp_.empty()) std::remove(temp_.c_str());
  temp_.clear();
  throw OutputError(fmt::format("cannot write {} '{}': {}", what_, path_, std::strerror(error)));
}

void write_output_file(const std::string& path, const std::string& what, std::string_view text, unsigned mode) {
  OutputFile out(path, what, mode);
  out.write(text);
  out.commit();
}

}  // namespace vidpipe
