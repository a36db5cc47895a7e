// <run><warnings>: the limits a run reached (docs/limits.md). The reader
// keeps each <warning> as written (kinds it does not know too), to_xml writes
// it back byte for byte, a document without one has no element, and every
// defect has its message (docs/output-format.md, "Warnings"); the schema
// agrees (xmllint, skipped when not installed). Fixture: tests/sir/minimal.xml
// under $OMPSIM_SRCDIR, whose line 5 is "  </run>".
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "Document.h"

using namespace ompsim::sir;

namespace {

std::string src_path(const std::string& rel) {
    const char* d = std::getenv("OMPSIM_SRCDIR");
    return std::string(d && *d ? d : ".") + "/" + rel;
}

std::string minimal() {
    std::ifstream in(src_path("tests/sir/minimal.xml"), std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    EXPECT_FALSE(ss.str().empty()) << "tests/sir/minimal.xml not found (set OMPSIM_SRCDIR)";
    return ss.str();
}

// minimal.xml with `lines` (each "      <warning ...>...</warning>") in a
// <warnings> element at the end of <run>.
std::string with_warnings(const std::string& lines) {
    std::string text = minimal();
    size_t at = text.find("  </run>\n");
    EXPECT_NE(at, std::string::npos);
    if (at != std::string::npos) text.insert(at, "    <warnings>\n" + lines + "    </warnings>\n");
    return text;
}

const char* const kTwo =
    "      <warning kind=\"stream-buffer\" option=\"--stream-buffer\" limit=\"1048576\">the replay's event "
    "buffers filled up</warning>\n"
    "      <warning kind=\"ospg-anomalies\" limit=\"64\">x &amp; y &lt; z</warning>\n";

std::string load_error(const std::string& text) {
    Document d;
    LoadError e;
    if (load_text(text, "doc.xml", d, e)) return "";
    return e.to_string();
}

bool have_xmllint() { return std::system("command -v xmllint >/dev/null 2>&1") == 0; }

// Whether xmllint accepts `text` against docs/ompsim-profile.xsd (callers
// check have_xmllint() first).
bool schema_valid(const std::string& text) {
    std::string path = ::testing::TempDir() + "sirwarnings." + std::to_string(getpid()) + ".xml";
    std::ofstream(path, std::ios::binary) << text;
    std::string cmd = "xmllint --noout --schema '" + src_path("docs/ompsim-profile.xsd") + "' '" + path +
                      "' >/dev/null 2>&1";
    bool ok = std::system(cmd.c_str()) == 0;
    std::remove(path.c_str());
    return ok;
}

}  // namespace

TEST(SirWarnings, ReadAndWrittenBack) {
    const std::string text = with_warnings(kTwo);
    Document d;
    LoadError e;
    ASSERT_TRUE(load_text(text, "doc.xml", d, e)) << e.to_string();
    ASSERT_EQ(d.run.warnings.size(), 2u);
    EXPECT_EQ(d.run.warnings[0].kind, "stream-buffer");
    ASSERT_TRUE(d.run.warnings[0].option.has_value());
    EXPECT_EQ(*d.run.warnings[0].option, "--stream-buffer");
    EXPECT_EQ(d.run.warnings[0].limit, 1048576u);
    EXPECT_EQ(d.run.warnings[0].message, "the replay's event buffers filled up");
    EXPECT_EQ(d.run.warnings[1].kind, "ospg-anomalies");
    EXPECT_FALSE(d.run.warnings[1].option.has_value());
    EXPECT_EQ(d.run.warnings[1].limit, 64u);
    EXPECT_EQ(d.run.warnings[1].message, "x & y < z");
    EXPECT_EQ(to_xml(d), text);
    if (have_xmllint()) EXPECT_TRUE(schema_valid(text));
}

TEST(SirWarnings, NoneNoElement) {
    const std::string text = minimal();
    Document d;
    LoadError e;
    ASSERT_TRUE(load_text(text, "doc.xml", d, e)) << e.to_string();
    EXPECT_TRUE(d.run.warnings.empty());
    EXPECT_EQ(to_xml(d).find("<warnings>"), std::string::npos);
}

// A kind this reader does not know is kept (a later tool may know more limits).
TEST(SirWarnings, UnknownKindIsKept) {
    Document d;
    LoadError e;
    ASSERT_TRUE(load_text(with_warnings("      <warning kind=\"future-limit-2\" limit=\"0\">later</warning>\n"),
                          "doc.xml", d, e))
        << e.to_string();
    ASSERT_EQ(d.run.warnings.size(), 1u);
    EXPECT_EQ(d.run.warnings[0].kind, "future-limit-2");
}

TEST(SirWarnings, Messages) {
    struct Case {
        std::string lines;
        std::string message;
    };
    const std::vector<Case> cases = {
        {"", "doc.xml:5: <warnings>: no <warning> (the element is left out when no limit was reached)"},
        {"      <warning kind=\"Stream buffer\" limit=\"1\">m</warning>\n",
         "doc.xml:6: <warning>: kind 'Stream buffer' is not a name of a-z, 0-9 and '-'"},
        {"      <warning kind=\"\" limit=\"1\">m</warning>\n",
         "doc.xml:6: <warning>: kind '' is not a name of a-z, 0-9 and '-'"},
        {"      <warning limit=\"1\">m</warning>\n", "doc.xml:6: <warning>: missing attribute 'kind'"},
        {"      <warning kind=\"a\" limit=\"1\">m</warning>\n      <warning kind=\"a\" limit=\"2\">n</warning>\n",
         "doc.xml:7: <warning>: kind 'a' is listed twice"},
        {"      <warning kind=\"a\" option=\"stream-buffer\" limit=\"1\">m</warning>\n",
         "doc.xml:6: <warning>: option 'stream-buffer' is not an option (--name)"},
        {"      <warning kind=\"a\">m</warning>\n", "doc.xml:6: <warning>: missing attribute 'limit'"},
        {"      <warning kind=\"a\" limit=\"-1\">m</warning>\n",
         "doc.xml:6: <warning>: attribute 'limit' is not a number: '-1'"},
        {"      <warning kind=\"a\" limit=\"1\"> \t</warning>\n",
         "doc.xml:6: <warning kind=\"a\">: the message is empty (it says what the document leaves out)"},
        {"      <warning kind=\"a\" limit=\"1\">m<b/></warning>\n",
         "doc.xml:6: <warning>: unexpected element <b> inside"},
    };
    for (const Case& c : cases) {
        const std::string text = with_warnings(c.lines);
        EXPECT_EQ(load_error(text), c.message) << c.lines;
        if (have_xmllint()) EXPECT_FALSE(schema_valid(text)) << "the schema accepts: " << c.lines;
    }
}
