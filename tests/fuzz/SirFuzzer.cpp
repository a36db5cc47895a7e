// libFuzzer target of the document reader (sir/): any bytes are parsed and
// validated; a document the reader accepts is written back with to_xml, and
// that text must read again and give the same text (the writer and the
// reader agree on everything the reader lets through). A finding is a crash,
// a sanitizer report, a hang (-timeout), a large allocation (-rss_limit_mb,
// -malloc_limit_mb) or the round trip's abort.
//
// Built by 'make fuzz' with clang -fsanitize=fuzzer,address,undefined
// (configure --enable-fuzzing); run by tests/fuzz/run.sh (CTest fuzz.sir_reader).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "Document.h"

using ompsim::sir::Document;
using ompsim::sir::LoadError;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    Document doc;
    LoadError err;
    if (!ompsim::sir::load_text(text, "fuzz.xml", doc, err)) {
        // A refusal is one line: a message with a line break would break
        // ompsim-report's one-line errors.
        const std::string line = err.to_string();
        if (line.empty() || line.find('\n') != std::string::npos) {
            std::fprintf(stderr, "refusal is not one line: '%s'\n", line.c_str());
            std::abort();
        }
        return 0;
    }
    const std::string written = ompsim::sir::to_xml(doc);
    Document again;
    if (!ompsim::sir::load_text(written, "written.xml", again, err)) {
        std::fprintf(stderr, "to_xml wrote a document the reader refuses: %s\n", err.to_string().c_str());
        std::abort();
    }
    if (ompsim::sir::to_xml(again) != written) {
        std::fprintf(stderr, "to_xml(load(to_xml(doc))) differs from to_xml(doc)\n");
        std::abort();
    }
    return 0;
}
