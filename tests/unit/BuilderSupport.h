// Running the option builder of cachesim/MachineConfig.h in tests: a list
// of command-line arguments (and optionally a configuration file's text)
// in, the configuration or the one-line error out.
#ifndef OMPSIM_TESTS_BUILDERSUPPORT_H
#define OMPSIM_TESTS_BUILDERSUPPORT_H

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "MachineConfig.h"

namespace ompsim {
namespace test {

struct Build {
    bool ok;
    std::string err;
    HierarchyConfig cfg;
};

// Feeds `args` to a fresh builder (stopping at the first option error), then
// the file text if any, then finishes; `host` stands for the detected host.
inline Build build(const std::vector<const char*>& args, const char* file = nullptr,
                   const char* name = "test.cfg", const HierarchyConfig* host = nullptr) {
    static MachineBuilder b;  // static storage, as in the tool
    builder_reset(b);
    builder_set_host(b, host);
    Build r{};
    ErrorText err;
    error_clear(err);
    for (const char* a : args) {
        OptResult res = builder_option(b, a, err);
        if (res != OptResult::Ok) {
            r.ok = false;
            r.err = res == OptResult::NotMine ? std::string("NotMine: ") + a : err.text;
            return r;
        }
    }
    if (file && !builder_config_text(b, name, file, std::strlen(file), err)) {
        r.ok = false;
        r.err = err.text;
        return r;
    }
    r.ok = builder_finish(b, r.cfg, err);
    if (!r.ok) r.err = err.text;
    return r;
}

inline HierarchyConfig ok(const std::vector<const char*>& args, const char* file = nullptr) {
    Build r = build(args, file);
    EXPECT_TRUE(r.ok) << r.err;
    return r.cfg;
}

inline std::string fails(const std::vector<const char*>& args, const char* file = nullptr) {
    Build r = build(args, file);
    EXPECT_FALSE(r.ok);
    return r.err;
}

// builder_option() alone: the message of an option rejected immediately.
inline std::string option_error(const char* arg) {
    MachineBuilder b;
    builder_reset(b);
    ErrorText err;
    error_clear(err);
    EXPECT_EQ(builder_option(b, arg, err), OptResult::Error) << arg;
    return err.text;
}

}  // namespace test
}  // namespace ompsim

#endif
