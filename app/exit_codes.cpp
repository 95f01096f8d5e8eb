#include "exit_codes.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <new>
#include <system_error>

#include "base/errors.hpp"
#include "common/cuda_check.hpp"

namespace vidpipe {

int exit_code_for_current_exception() {
  try {
    throw;
  } catch (const ConfigError& e) {
    std::cerr << "vidpipe: config error: " << e.what() << "\n";
    return 2;
  } catch (const InputError& e) {
    std::cerr << "vidpipe: input error: " << e.what() << "\n";
    return 3;
  } catch (const OutputError& e) {
    std::cerr << "vidpipe: output error: " << e.what() << "\n";
    return 3;
  } catch (const StoppedBeforeStart& e) {
    std::cerr << "vidpipe: " << e.what() << "\n";
    return 130;
  } catch (const CudaError& e) {
    std::cerr << "vidpipe: " << e.what() << "\n";
    return 4;
  } catch (const std::filesystem::filesystem_error& e) {
    // A path the program met on the way (a symlink loop, a permission): an input/output error.
    std::cerr << "vidpipe: input error: '" << e.path1().string() << "': " << e.code().message() << "\n";
    return 3;
  } catch (const std::bad_alloc&) {
    std::cerr << "vidpipe: input error: out of host memory (frames too large for this machine, or too many "
                 "buffers: lower copy.batch_size, copy.streams or reader.pool_frames)\n";
    return 3;
  } catch (const nlohmann::json::exception& e) {
    std::cerr << "vidpipe: input error: " << e.what() << "\n";
    return 3;
  } catch (const std::system_error& e) {
    // No thread to be had (a memory or process limit: ulimit -v, -u, a container's pids):
    // out of host resources like bad_alloc, not an unexpected error.
    if (e.code() != std::errc::resource_unavailable_try_again && e.code() != std::errc::not_enough_memory) {
      std::cerr << "vidpipe: error: " << e.what() << "\n";
      return 1;
    }
    std::cerr << "vidpipe: input error: out of host resources: cannot start a thread (" << e.what()
              << "): raise the memory or process limit, or lower the inputs, copy.streams or decoder threads\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "vidpipe: error: " << e.what() << "\n";
    return 1;
  } catch (...) {
    std::cerr << "vidpipe: error: an unknown exception\n";
    return 1;
  }
}

}  // namespace vidpipe
