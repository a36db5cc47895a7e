// sir_roundtrip DOC...: loads each document with sir/ and checks that
// sir::to_xml gives back exactly the bytes the tool wrote (the tool and
// sir/ write the format independently; this keeps them in step).
#include <fstream>
#include <iostream>
#include <sstream>

#include "Document.h"

int main(int argc, char** argv) {
    int status = 0;
    for (int i = 1; i < argc; ++i) {
        std::ifstream in(argv[i], std::ios::binary);
        std::stringstream bytes;
        bytes << in.rdbuf();
        ompsim::sir::Document doc;
        ompsim::sir::LoadError err;
        if (!ompsim::sir::load_file(argv[i], doc, err)) {
            std::cout << "FAIL: " << err.to_string() << "\n";
            status = 1;
            continue;
        }
        std::string again = ompsim::sir::to_xml(doc);
        if (again != bytes.str()) {
            size_t at = 0;
            while (at < again.size() && at < bytes.str().size() && again[at] == bytes.str()[at]) ++at;
            std::cout << "FAIL: " << argv[i] << ": to_xml differs from the file at byte " << at << ": file '"
                      << bytes.str().substr(at, 60) << "' vs '" << again.substr(at, 60) << "'\n";
            status = 1;
        } else {
            std::cout << "ok: " << argv[i] << ": " << bytes.str().size() << " bytes round-trip exactly\n";
        }
    }
    return status;
}
