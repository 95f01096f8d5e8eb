#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "config/config.hpp"
#include "base/errors.hpp"
#include "base/fault_injection.hpp"
#include "face_assets.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

std::string write_yaml(const std::string& name, const std::string& text) {
  const std::string path = test::scratch_dir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// An input that exists, so the checks below are about the key under test.
std::string existing_input() { return write_yaml("input.mp4", "not really a video"); }

// Tests run outside the repository root, where the default relative model path is not.
const std::string model_set = "gpu.model=" + test::model_dir();

std::string error_of(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  const std::string path = write_yaml("c.yaml", yaml);
  try {
    load_config(path, sets);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Config, DefaultsWhenNoFileGiven) {
  const Config c = load_config("", {"input.uri=" + existing_input(), model_set});
  EXPECT_EQ(c.copy.mode, CopyMode::async);
  EXPECT_EQ(c.copy.memory, HostMemory::pinned);
  EXPECT_EQ(c.copy.streams, 2);
  EXPECT_EQ(c.gpu.preprocess.width, 416);
  EXPECT_EQ(c.metrics.warmup_frames, 30);
  EXPECT_EQ(c.origin.at("input.uri"), "--set");
}

TEST(Config, ReadsEveryKindOfValue) {
  const std::string in = existing_input();
  const Config c = load_config(write_yaml("all.yaml", "device: cpu\ninput:\n  uri: " + in +
                                                           "\n  loop: true\ncopy:\n  mode: sync\n  memory: pageable\n"
                                                           "  streams: 5\n  chunk_bytes: 1048576\n"
                                                           "gpu:\n  preprocess:\n    mean: [1, 2.5, 3]\n    scale: 0.5\n"
                                                           "sink:\n  kind: null\n"),
                               {model_set});
  EXPECT_EQ(c.device, DeviceChoice::cpu);
  EXPECT_TRUE(c.input.loop);
  EXPECT_EQ(c.copy.mode, CopyMode::sync);
  EXPECT_EQ(c.copy.memory, HostMemory::pageable);
  EXPECT_EQ(c.copy.streams, 5);
  EXPECT_EQ(c.copy.chunk_bytes, 1048576);
  EXPECT_DOUBLE_EQ(c.gpu.preprocess.mean[1], 2.5);
  EXPECT_DOUBLE_EQ(c.gpu.preprocess.scale, 0.5);
  EXPECT_EQ(c.sink.kind, SinkKind::null);
  EXPECT_EQ(c.origin.at("copy.streams"), test::scratch_dir() + "/all.yaml:8:3");
}

TEST(Config, SetOverridesTheFile) {
  const std::string in = existing_input();
  const Config c = load_config(write_yaml("o.yaml", "input: {uri: " + in + "}\ncopy: {streams: 3}\n"),
                               {"copy.streams=7", "copy.mode=sync", model_set});
  EXPECT_EQ(c.copy.streams, 7);
  EXPECT_EQ(c.copy.mode, CopyMode::sync);
}

TEST(Config, UnknownKeyNamesFileLineAndSuggestion) {
  const std::string in = existing_input();
  const std::string e = error_of("input: {uri: " + in + "}\ncopy:\n  stream: 4\n");
  EXPECT_NE(e.find("c.yaml:3:3: copy.stream: unknown key (did you mean 'copy.streams'?)"), std::string::npos) << e;
}

TEST(Config, WrongTypeIsAnError) {
  const std::string e = error_of("copy:\n  streams: many\n");
  EXPECT_NE(e.find("c.yaml:2:3: copy.streams: expected an integer, got 'many'"), std::string::npos) << e;
  const std::string b = error_of("input:\n  loop: perhaps\n");
  EXPECT_NE(b.find("input.loop: expected true or false"), std::string::npos) << b;
  const std::string l = error_of("gpu:\n  preprocess:\n    mean: [1, 2]\n");
  EXPECT_NE(l.find("gpu.preprocess.mean: expected a list of 3 numbers"), std::string::npos) << l;
}

TEST(Config, OutOfRangeIsAnError) {
  const std::string e = error_of("copy:\n  streams: 0\n");
  EXPECT_NE(e.find("copy.streams: must be between 1 and 32, got 0"), std::string::npos) << e;
  const std::string crf = error_of("sink:\n  crf: 99\n");
  EXPECT_NE(crf.find("sink.crf: must be between 0 and 51, got 99"), std::string::npos) << crf;
}

TEST(Config, BadChoiceListsTheChoices) {
  const std::string e = error_of("copy:\n  mode: fast\n");
  EXPECT_NE(e.find("copy.mode: must be one of sync | async, got 'fast'"), std::string::npos) << e;
}

// reader.decoders: a count, a list of kinds or auto; each written back as it was given.
TEST(Config, DecodersTakeACountAListOfKindsOrAuto) {
  const std::string in = existing_input();
  const Config count = load_config("", {"input.uri=" + in, model_set, "reader.decoders=3"});
  EXPECT_EQ(count.reader.decoders.count, 3);
  EXPECT_FALSE(count.reader.decoders.mixed());
  EXPECT_EQ(config_json(count)["reader"]["decoders"], 3);
  const Config mix = load_config("", {"input.uri=" + in, model_set, "reader.decoders=[nvdec, cpu, nvdec]"});
  EXPECT_TRUE(mix.reader.decoders.mixed());
  EXPECT_EQ(config_json(mix)["reader"]["decoders"], nlohmann::json({"nvdec", "cpu", "nvdec"}));
  // The CPU decoder first, whatever the order written: its layout is the input's.
  EXPECT_EQ(mix.reader.decoders.resolve(Decoder::cpu, true),
            (std::vector<Decoder>{Decoder::cpu, Decoder::nvdec, Decoder::nvdec}));
  const Config automatic = load_config("", {"input.uri=" + in, model_set, "reader.decoders=auto"});
  EXPECT_EQ(config_json(automatic)["reader"]["decoders"], "auto");
  EXPECT_EQ(automatic.reader.decoders.resolve(Decoder::cpu, false), std::vector<Decoder>{Decoder::cpu});
  EXPECT_EQ(automatic.reader.decoders.resolve(Decoder::cpu, true).size(),
            static_cast<std::size_t>(1 + DecoderList::auto_nvdec_sessions));
  // Written back and read again, each is what it was (a report's config is a config).
  for (const Config* c : {&count, &mix, &automatic}) {
    const std::string again = config_json(*c)["reader"]["decoders"].dump();
    const Config reread = load_config("", {"input.uri=" + in, model_set, "reader.decoders=" + again});
    EXPECT_EQ(config_json(reread)["reader"]["decoders"].dump(), again);
  }
}

TEST(Config, BadDecodersSayWhatIsTaken) {
  const std::string kind = error_of("reader:\n  decoders: [cpu, gpu]\n");
  EXPECT_NE(kind.find("reader.decoders: every entry must be cpu or nvdec, got 'gpu'"), std::string::npos) << kind;
  const std::string empty = error_of("reader:\n  decoders: []\n");
  EXPECT_NE(empty.find("reader.decoders: a list of 1 to 8 decoders, got 0"), std::string::npos) << empty;
  const std::string many = error_of("reader:\n  decoders: 9\n");
  EXPECT_NE(many.find("reader.decoders: must be between 1 and 8, got 9"), std::string::npos) << many;
  const std::string word = error_of("reader:\n  decoders: fast\n");
  EXPECT_NE(word.find("reader.decoders: expected 1..8, a list such as [cpu, nvdec] or auto, got 'fast'"),
            std::string::npos)
      << word;
}

// Without a CUDA device a list keeps its CPU decoders, and auto is one CPU decoder; with
// NVDEC sessions beside them the CPU decoders leave a core to each session and one to the rest.
TEST(Config, DecodersOnTheCpuAndTheirThreads) {
  DecoderList mix;
  mix.kinds = {Decoder::cpu, Decoder::nvdec, Decoder::cpu};
  EXPECT_EQ(mix.on_cpu_only().count, 2);
  EXPECT_FALSE(mix.on_cpu_only().mixed());
  DecoderList automatic;
  automatic.automatic = true;
  EXPECT_EQ(automatic.on_cpu_only().count, 1);
  ReaderConfig reader;
  EXPECT_EQ(split_cpu_threads(reader, {Decoder::cpu, Decoder::nvdec, Decoder::nvdec}, 16), 13);
  EXPECT_EQ(split_cpu_threads(reader, {Decoder::cpu, Decoder::cpu, Decoder::nvdec}, 16), 7);
  EXPECT_EQ(split_cpu_threads(reader, {Decoder::cpu, Decoder::nvdec}, 2), 1);
  EXPECT_EQ(split_cpu_threads(reader, {Decoder::cpu, Decoder::cpu}, 16), 0) << "no NVDEC: FFmpeg's own choice";
  reader.threads = 4;
  EXPECT_EQ(split_cpu_threads(reader, {Decoder::cpu, Decoder::nvdec}, 16), 4) << "as configured";
}

TEST(Config, SectionGivenAsScalar) {
  const std::string e = error_of("copy: 3\n");
  EXPECT_NE(e.find("c.yaml:1:7: copy: expected a section of keys"), std::string::npos) << e;
}

TEST(Config, ListAsKeyIsAnErrorNotACrash) {
  // Found by fuzz_config: "? [a, b]" makes a key that is a list.
  const std::string e = error_of("copy:\n  ? [streams, mode]\n  : 2\n");
  EXPECT_NE(e.find("c.yaml:2:5: expected a key name, got a list"), std::string::npos) << e;
}

// The input's fault, not the config's: an input error (exit code 3), as when it cannot be read.
TEST(Config, MissingInputFileIsAnInputErrorNamingKeyAndLine) {
  const std::string path = write_yaml("c.yaml", "input:\n  uri: /no/such/clip.mp4\n");
  try {
    check_inputs_exist(load_config(path, {}));
    FAIL() << "a missing input passed";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("c.yaml:2:3: input.uri: input file '/no/such/clip.mp4' does not exist"),
              std::string::npos) << e.what();
  }
}

// --input and --report take a path as it is: '#' starts no comment, '[' no list.
TEST(Config, LiteralSettingsAreNotReadAsYaml) {
  const std::string odd = test::scratch_dir() + "/[1080p] movie #1: 'x'.mp4";
  std::ofstream(odd) << "x";
  const Config c = load_config("", {model_set}, {{"input.uri", odd, "--input"}, {"metrics.report", "run #1.json", "--report"}});
  EXPECT_EQ(c.input.uri, odd);
  EXPECT_EQ(c.metrics.report, "run #1.json");
  EXPECT_EQ(c.origin.at("input.uri"), "--input");
  const Config off = load_config("", {model_set, "input.uri=" + existing_input()}, {{"metrics.report", "", "--report"}});
  EXPECT_EQ(off.metrics.report, "");
}

TEST(Config, StreamUrisAreNotCheckedAsFiles) {
  const Config c = load_config("", {"input.uri=udp://127.0.0.1:5000", model_set});
  EXPECT_EQ(c.input.uri, "udp://127.0.0.1:5000");
}

TEST(Config, YamlSyntaxErrorHasLine) {
  const std::string e = error_of("copy:\n  streams: [1, 2\n");
  EXPECT_NE(e.find("YAML syntax error"), std::string::npos) << e;
  EXPECT_TRUE(std::regex_search(e, std::regex(R"(c\.yaml:\d+:\d+:)"))) << e;
}

TEST(Config, MissingModelNamesTheKey) {
  const std::string e = error_of("input: {uri: " + existing_input() + "}\ngpu:\n  model: /no/model\n");
  EXPECT_NE(e.find("c.yaml:3:3: gpu.model: no TinyFaceDetector model in '/no/model'"), std::string::npos) << e;
  EXPECT_EQ(error_of("input: {uri: " + existing_input() + "}\ngpu:\n  model: /no/model\n  inference: false\n"), "");
}

TEST(Config, InferenceNeedsASquareInput) {
  const std::string e = error_of("", {"input.uri=" + existing_input(), model_set, "gpu.preprocess.width=400"});
  EXPECT_NE(e.find("gpu.preprocess.width: with inference on, the input must be square and a multiple of 32"),
            std::string::npos) << e;
}

TEST(Config, MissingConfigFile) {
  EXPECT_THROW(load_config("/no/such/config.yaml", {}), ConfigError);
}

TEST(Config, SetErrors) {
  EXPECT_NE(error_of("", {"copy.streams"}).find("--set copy.streams: expected key=value"), std::string::npos);
  EXPECT_NE(error_of("", {"copy.nope=1"}).find("--set: copy.nope: unknown key"), std::string::npos);
  EXPECT_NE(error_of("", {"copy=1"}).find("--set copy: is a section"), std::string::npos);
  EXPECT_NE(error_of("", {"copy.streams=x"}).find("--set: copy.streams: expected an integer"), std::string::npos);
}

// config/README.md is generated from the key declarations; a stale file fails here.
TEST(Config, ReadmeIsGeneratedFromTheDeclarations) {
  std::ifstream in(test::source_dir() + "/config/README.md");
  ASSERT_TRUE(in) << "config/README.md missing";
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, config_reference_markdown())
      << "config/README.md is stale: run ./build/app/vidpipe config-doc > config/README.md";
  for (const std::string& key : config_keys())
    EXPECT_NE(text.find("| `" + key + "` |"), std::string::npos) << key << " has no row in config/README.md";
}

// Every key comes back under its own name in the resolved config (the report's "config").
TEST(Config, ResolvedConfigHasEveryKeyUnderItsName) {
  const Config c = load_config("", {"input.uri=" + existing_input(), model_set, "copy.mode=sync", "copy.streams=3"});
  const nlohmann::json j = config_json(c);
  for (const std::string& key : config_keys()) {
    nlohmann::json::json_pointer ptr("/" + std::regex_replace(key, std::regex("\\."), "/"));
    EXPECT_TRUE(j.contains(ptr)) << key;
  }
  EXPECT_EQ(j["copy"]["mode"], "sync");
  EXPECT_EQ(j["copy"]["streams"], 3);
  EXPECT_EQ(j["gpu"]["preprocess"]["align"], "top_left");
}

// `config-doc --yaml` is a config of every default that loads as it is, key for key.
TEST(Config, TheYamlTemplateLoadsToTheDefaults) {
  const std::string path = write_yaml("template.yaml", config_template_yaml());
  const std::vector<std::string> sets{"input.uri=" + existing_input(), model_set};
  const nlohmann::json from_template = config_json(load_config(path, sets));
  const nlohmann::json defaults = config_json(load_config("", sets));
  EXPECT_EQ(from_template, defaults) << nlohmann::json::diff(defaults, from_template).dump(2);
  for (const std::string& key : config_keys()) {
    const std::string leaf = key.substr(key.rfind('.') + 1);
    EXPECT_NE(config_template_yaml().find(leaf + ": "), std::string::npos) << key;
  }
}

// A report's "config" (JSON, which YAML reads) loads back as a config: the same run again.
TEST(Config, AReportsConfigLoadsBack) {
  const Config first = load_config("", {"input.uri=" + existing_input(), model_set, "copy.streams=3", "inputs=[]"});
  const std::string path = write_yaml("from-report.yaml", config_json(first).dump(2));
  EXPECT_EQ(config_json(load_config(path, {})), config_json(first));
}

TEST(Config, ShippedConfigsLoad) {
  for (const char* name : {"default.yaml", "sync.yaml", "async.yaml"}) {
    const std::string path = test::source_dir() + "/config/" + name;
    // The bundled clip may not be made yet; point the input at a file that exists.
    EXPECT_NO_THROW(load_config(path, {"input.uri=" + existing_input(), model_set})) << name;
  }
}

TEST(InjectedFault, TrapFrameParsesAndNonsenseNamesTheVariable) {
  EXPECT_EQ(parse_injected_fault("").gpu_trap_at_frame, -1);
  EXPECT_EQ(parse_injected_fault("gpu-trap:40").gpu_trap_at_frame, 40);
  EXPECT_TRUE(parse_injected_fault("stop-in-loop-seek").stop_in_loop_seek);
  EXPECT_FALSE(parse_injected_fault("gpu-trap:40").stop_in_loop_seek);
  EXPECT_EQ(parse_injected_fault("stop-in-read:12").stop_in_read_after_frame, 12);
  EXPECT_EQ(parse_injected_fault("stop-in-loop-seek").stop_in_read_after_frame, -1);
  for (const char* bad : {"gpu-trap:", "gpu-trap:-1", "gpu-trap:4x", "cpu-trap:4", "stop-in-read:",
                          "stop-in-read:-3", "stop-in-loop-seek:1"}) {
    try {
      parse_injected_fault(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("VIDPIPE_INJECT_FAULT='" + std::string(bad) + "'"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace vidpipe
