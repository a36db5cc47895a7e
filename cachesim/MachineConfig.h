// Where a HierarchyConfig comes from: the machine presets (--machine), the
// cache options of the command line (--L2=1M,8,64, --L3-inclusion=..., ...)
// and the --cache-config file. docs/cache-config.md documents all of them.
//
// Freestanding like the rest of cachesim/: no libc, no allocation. The
// builder keeps pointers to the caller's strings (Valgrind's argv and the
// file text the tool read), which must stay alive until builder_finish().
#ifndef OMPSIM_CACHESIM_MACHINECONFIG_H
#define OMPSIM_CACHESIM_MACHINECONFIG_H

#include "CacheConfig.h"
#include "Types.h"

namespace ompsim {

constexpr int kMaxCacheOptions = 64;

// Collects cache options in command-line order and builds the final config.
// No constructor (lives in static storage in the tool): call builder_reset().
struct MachineBuilder {
    const char* machine;                      // --machine value (NUL-terminated), or null
    const char* options[kMaxCacheOptions];    // override arguments, "--L2=1M,8,64"
    int option_count;
    const char* config_path;                  // --cache-config value, or null
    const char* config_name;                  // name used in file messages
    const char* config_text;                  // file text (not NUL-terminated)
    size_t config_len;
    bool config_loaded;                       // builder_config_text() succeeded
    const HierarchyConfig* host;              // the detected host (builder_set_host), or null
};

void builder_reset(MachineBuilder& b);

enum class OptResult { NotMine, Ok, Error };

// Offers one command-line argument such as "--L2=1M,8,64". NotMine if it is
// not a cache option (err untouched). Error (err set to one line naming the
// option and the rule) if it is malformed: syntax and value ranges are
// checked here; the geometry rules are checked by validate() at finish.
OptResult builder_option(MachineBuilder& b, const char* arg, ErrorText& err);

// The FILE of --cache-config=FILE, or null. The tool reads that file and
// hands its text to builder_config_text().
const char* builder_config_path(const MachineBuilder& b);

// Attaches the text of a configuration file; `name` prefixes messages as
// "name:line: ...". Every line is checked now (syntax and ranges). The text
// must stay alive until builder_finish().
bool builder_config_text(MachineBuilder& b, const char* name, const char* text,
                         size_t len, ErrorText& err);

// The hierarchy --machine=host (or `machine = host` in the file) starts
// from: the tool detects it (vgtool/HostMachine) when builder_machine_name()
// is "host" and hands it in here before builder_finish(); it must stay
// alive until then. Without it, builder_finish() fails for host.
void builder_set_host(MachineBuilder& b, const HierarchyConfig* host);

// Builds the configuration: preset (--machine, else the file's `machine`,
// else "desktop") -> config-file settings in file order -> command-line
// overrides in order; then validate(). False with err on any error.
bool builder_finish(const MachineBuilder& b, HierarchyConfig& out, ErrorText& err);

// The name of the preset builder_finish() starts from (one of
// machine_preset_names(), static storage): --machine, else the last
// `machine` line of the attached file, else "desktop". Null only if the
// builder holds an invalid file or machine (builder_finish() then fails).
const char* builder_machine_name(const MachineBuilder& b);

// Presets: false if `name` is unknown or "host" (which needs detection).
bool machine_preset(const char* name, HierarchyConfig& out);
// The preset names, null-terminated, in alphabetical order; includes "host"
// (docs/machines.md lists them all).
const char* const* machine_preset_names();

// Parses a size in bytes: "32768", "32K", "32k", "32KiB", "32KB", "1.25M",
// "2MiB", "1G", "64B" (K, M, G, T are binary multiples, always). The result
// must be a whole number of bytes (1.3K is rejected) and fit in 64 bits;
// negatives, empty strings and trailing junk are rejected. "0" parses.
bool parse_size(const char* s, size_t len, u64& out);

}  // namespace ompsim

#endif
