// Reading XML with TinyXML-2, and the escaping of sir/ (see XmlTree.h).
#include "XmlTree.h"

#include <tinyxml2.h>

#include <cstdio>
#include <cstring>
#include <utility>

namespace ompsim {
namespace sir {
namespace xml {

const Attribute* Element::attribute(const char* wanted) const {
    for (const Attribute& a : attributes)
        if (a.name == wanted) return &a;
    return nullptr;
}

void append_escaped(std::string& out, const std::string& s) {
    for (char c : s) {
        unsigned char u = static_cast<unsigned char>(c);
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += (u < 0x20 && c != '\t') ? '?' : c; break;
        }
    }
}

namespace {

// The length of the valid UTF-8 sequence at s[i] (1 to 4), or 0 when the
// bytes there are not one (a stray continuation byte, a truncated or
// overlong sequence, a surrogate, a code point above U+10FFFF).
size_t utf8_length(const std::string& s, size_t i) {
    const unsigned char u = static_cast<unsigned char>(s[i]);
    if (u < 0x80) return 1;
    size_t n = 0;
    unsigned lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (u >= 0xC2 && u <= 0xDF) n = 2;
    else if (u >= 0xE0 && u <= 0xEF) {
        n = 3;
        if (u == 0xE0) lo = 0xA0;
        if (u == 0xED) hi = 0x9F;
    } else if (u >= 0xF0 && u <= 0xF4) {
        n = 4;
        if (u == 0xF0) lo = 0x90;
        if (u == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k) {
        const unsigned char c = static_cast<unsigned char>(s[i + k]);
        if (c < (k == 1 ? lo : 0x80) || c > (k == 1 ? hi : 0xBF)) return 0;
    }
    return n;
}

}  // namespace

std::string excerpt(const std::string& s, size_t max_bytes) {
    std::string out;
    size_t i = 0;
    while (i < s.size()) {
        size_t len = utf8_length(s, i);
        if (i + (len ? len : 1) > max_bytes) break;  // never cut a sequence in two
        const unsigned char u = static_cast<unsigned char>(s[i]);
        if (len == 0 || u < 0x20 || u == 0x7F) {
            out += '?';
            i += 1;
        } else {
            out.append(s, i, len);
            i += len;
        }
    }
    if (i < s.size()) out += "...";
    return out;
}

namespace {

using tinyxml2::XMLDocument;
using tinyxml2::XMLError;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The line of text[pos] (1 for the first line).
int line_at(const std::string& text, size_t pos) {
    int line = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i)
        if (text[i] == '\n') ++line;
    return line;
}

// The line of the last character of the file.
int last_line(const std::string& text) { return text.empty() ? 1 : line_at(text, text.size() - 1); }

// TinyXML-2 9 drops character data made only of white space (it skips white
// space before every '<'), so `<arg> </arg>` would read back as "". This
// wraps such white space, when it directly follows a '>' and precedes an end
// tag "</", in a CDATA section: TinyXML-2 keeps CDATA as written. Nothing
// else changes and no line end is added or removed, so TinyXML-2's line
// numbers stay those of `text`. Comments and CDATA sections are copied as
// they are. (A '>' followed by blanks and "</" inside an attribute value
// would be touched too, but '<' is not allowed in attribute values.)
std::string protect_blank_text(const std::string& text) {
    std::string out;
    out.reserve(text.size() + 256);
    const size_t n = text.size();
    size_t i = 0;
    while (i < n) {
        const char* close = nullptr;
        size_t open_len = 0;
        if (text.compare(i, 4, "<!--") == 0) {
            close = "-->";
            open_len = 4;
        } else if (text.compare(i, 9, "<![CDATA[") == 0) {
            close = "]]>";
            open_len = 9;
        }
        if (close) {
            size_t end = text.find(close, i + open_len);
            end = end == std::string::npos ? n : end + 3;
            out.append(text, i, end - i);
            i = end;
        } else {
            out += text[i++];
        }
        if (out.back() != '>') continue;
        size_t j = i;
        while (j < n && is_space(text[j])) ++j;
        if (j > i && text.compare(j, 2, "</") == 0) {
            out += "<![CDATA[";
            out.append(text, i, j - i);
            out += "]]>";
            i = j;
        }
    }
    return out;
}

// "XML error: ..." for a document TinyXML-2 rejected. ErrorStr() is
// "Error=NAME ErrorID=N (0xN) Line number=L" with ": XMLElement name=E" for
// errors in or about an element.
std::string xml_error_message(const XMLDocument& doc, const std::string& text) {
    std::string element;
    std::string detail = doc.ErrorStr() ? doc.ErrorStr() : "";
    const std::string marker = "XMLElement name=";
    size_t at = detail.find(marker);
    if (at != std::string::npos) element = "<" + excerpt(detail.substr(at + marker.size())) + ">";
    const std::string in = element.empty() ? "" : " in " + element;

    const XMLError id = doc.ErrorID();
    std::string what;
    switch (id) {
        case tinyxml2::XML_ERROR_PARSING_ELEMENT: what = "malformed tag" + in; break;
        case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE: what = "malformed or repeated attribute" + in; break;
        case tinyxml2::XML_ERROR_PARSING_TEXT: what = "text that no tag follows"; break;
        case tinyxml2::XML_ERROR_PARSING_CDATA: what = "unterminated CDATA section"; break;
        case tinyxml2::XML_ERROR_PARSING_COMMENT: what = "unterminated comment"; break;
        case tinyxml2::XML_ERROR_PARSING_DECLARATION: what = "unterminated or misplaced <?...?>"; break;
        case tinyxml2::XML_ERROR_PARSING_UNKNOWN: what = "unterminated <!...>"; break;
        case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT:
            what = element.empty() ? "an end tag does not match its element"
                                   : "the end tag of " + element + " does not match it";
            break;
        case tinyxml2::XML_ERROR_PARSING:
            what = "unclosed element, or a tag without a valid name";
            break;
        case tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED: what = "elements nested too deeply"; break;
        default: what = "cannot parse"; break;
    }
    std::string message = "XML error: " + what + " (" + doc.ErrorName() + ")";

    // A file cut short (a full disk, a killed copy). TinyXML-2 9 reports
    // these errors only when the input ends before the terminator it looks
    // for ("<", "]]>", "-->", ">"); XML_ERROR_PARSING is, but for a '<'
    // without a name, an element still open at the end of the input. An
    // error inside a tag means the same when the file does not end with '>'
    // (every complete document does).
    bool at_eof = id == tinyxml2::XML_ERROR_PARSING_TEXT || id == tinyxml2::XML_ERROR_PARSING_CDATA ||
                  id == tinyxml2::XML_ERROR_PARSING_COMMENT || id == tinyxml2::XML_ERROR_PARSING_UNKNOWN ||
                  id == tinyxml2::XML_ERROR_PARSING;
    if (!at_eof && (id == tinyxml2::XML_ERROR_PARSING_ELEMENT || id == tinyxml2::XML_ERROR_PARSING_ATTRIBUTE ||
                    id == tinyxml2::XML_ERROR_PARSING_DECLARATION)) {
        size_t last = text.size();
        while (last > 0 && is_space(text[last - 1])) --last;
        at_eof = last == 0 || text[last - 1] != '>';
    }
    if (at_eof) message += " (the file may be truncated)";
    return message;
}

// Element and its content, from TinyXML-2's tree. TinyXML-2 limits the depth
// (TINYXML2_MAX_ELEMENT_DEPTH, 100 in version 9), so the recursion is bounded.
void convert(const tinyxml2::XMLElement& from, Element& to) {
    to.name = from.Name();
    to.line = from.GetLineNum();
    for (const tinyxml2::XMLAttribute* a = from.FirstAttribute(); a; a = a->Next())
        to.attributes.push_back(Attribute{a->Name(), a->Value(), a->GetLineNum()});
    for (const tinyxml2::XMLNode* n = from.FirstChild(); n; n = n->NextSibling()) {
        if (const tinyxml2::XMLElement* e = n->ToElement()) {
            to.children.emplace_back();
            convert(*e, to.children.back());
        } else if (const tinyxml2::XMLText* t = n->ToText()) {
            to.text += t->Value();
        }
    }
}

struct Failure {
    int line;
    std::string message;
};

// What a file that is not text looks like, for the message: a few formats
// users hand over by mistake are named (a compressed document, the program
// instead of its profile), anything else is "binary data".
std::string binary_kind(const std::string& text) {
    auto starts = [&](const char* magic, size_t n) { return text.compare(0, n, magic, n) == 0; };
    if (starts("\x1F\x8B", 2)) return "gzip-compressed data; decompress it first";
    if (starts("BZh", 3) && text.size() > 3 && text[3] >= '1' && text[3] <= '9')
        return "bzip2-compressed data; decompress it first";
    if (starts("\xFD" "7zXZ", 6)) return "xz-compressed data; decompress it first";
    if (starts("\x28\xB5\x2F\xFD", 4)) return "zstd-compressed data; decompress it first";
    if (starts("\x7F" "ELF", 4)) return "an ELF executable or library, not its profile";
    return "binary data";
}

// Whether the start of `text` (its first 512 bytes) is not text: a NUL or
// another control byte than tab, CR, LF, form feed, or bytes that are not
// UTF-8.
bool looks_binary(const std::string& text) {
    const size_t n = text.size() < 512 ? text.size() : 512;
    for (size_t i = 0; i < n;) {
        const unsigned char u = static_cast<unsigned char>(text[i]);
        if (u < 0x20 && u != '\t' && u != '\n' && u != '\r' && u != '\f') return true;
        size_t len = utf8_length(text, i);
        if (len == 0) return i + 4 < n;  // a sequence cut by the 512-byte window is not evidence
        i += len;
    }
    return false;
}

std::string hex_bytes(const std::string& text, size_t count) {
    std::string out;
    for (size_t i = 0; i < count && i < text.size(); ++i) {
        char buf[4];
        std::snprintf(buf, sizeof buf, "%s%02X", i ? " " : "", static_cast<unsigned char>(text[i]));
        out += buf;
    }
    if (text.size() > count) out += " ...";
    return out;
}

void parse_or_throw(const std::string& text, Element& root) {
    size_t p = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // byte order mark
    while (p < text.size() && is_space(text[p])) ++p;
    if (p == text.size()) throw Failure{0, "empty file"};
    if (text.compare(0, 2, "\xFF\xFE") == 0 || text.compare(0, 2, "\xFE\xFF") == 0 ||
        (text.size() >= 2 && (text[0] == 0 || text[1] == 0) && (text[0] == '<' || text[1] == '<')))
        throw Failure{1, "not an XML document (UTF-16 text; ompsim documents are UTF-8: convert it with "
                         "iconv -t UTF-8)"};
    if (text[p] != '<' && looks_binary(text))
        throw Failure{1, "not an XML document (" + binary_kind(text) + ": it starts with bytes " +
                             hex_bytes(text, 8) + ")"};
    if (text[p] != '<') {
        size_t eol = text.find('\n', p);
        std::string first = text.substr(p, eol == std::string::npos ? std::string::npos : eol - p);
        throw Failure{line_at(text, p), "not an XML document (it starts with '" + excerpt(first, 30) + "')"};
    }
    // TinyXML-2 reads a C string (a NUL would end the document early) and
    // does not check characters.
    for (size_t i = 0; i < text.size(); ++i) {
        unsigned char u = static_cast<unsigned char>(text[i]);
        if (u < 0x20 && u != '\t' && u != '\n' && u != '\r') {
            char buf[80];
            std::snprintf(buf, sizeof buf, "XML error: character 0x%02X is not allowed in XML", u);
            throw Failure{line_at(text, i), buf};
        }
    }

    const std::string input = protect_blank_text(text);
    XMLDocument doc(true /*processEntities*/, tinyxml2::PRESERVE_WHITESPACE);
    if (doc.Parse(input.data(), input.size()) != tinyxml2::XML_SUCCESS) {
        if (doc.ErrorID() == tinyxml2::XML_ERROR_EMPTY_DOCUMENT) throw Failure{0, "empty file"};
        throw Failure{doc.ErrorLineNum(), xml_error_message(doc, text)};
    }
    const tinyxml2::XMLElement* top = doc.RootElement();
    if (!top)
        throw Failure{last_line(text), "XML error: the file ends before the root element (the file may be truncated)"};
    if (const tinyxml2::XMLElement* second = top->NextSiblingElement())
        throw Failure{second->GetLineNum(),
                      "XML error: a second root element after </" + excerpt(top->Name()) + ">"};
    convert(*top, root);
}

// The name of the first element of `text`, after the prolog (a byte order
// mark, white space, <?...?>, comments, <!DOCTYPE ...>); "" when the text does
// not get that far. Only a hint for a message: nothing else is checked.
std::string first_element_name(const std::string& text) {
    size_t p = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    while (true) {
        while (p < text.size() && is_space(text[p])) ++p;
        if (p >= text.size() || text[p] != '<') return "";
        const char* close = text.compare(p, 4, "<!--") == 0 ? "-->"
                            : text.compare(p, 2, "<?") == 0 ? "?>"
                            : text.compare(p, 2, "<!") == 0 ? ">"
                                                            : nullptr;
        if (!close) break;
        size_t end = text.find(close, p + 2);
        if (end == std::string::npos) return "";
        p = end + std::strlen(close);
    }
    size_t end = ++p;
    while (end < text.size() && !is_space(text[end]) && text[end] != '>' && text[end] != '/' && end - p < 64) ++end;
    if (end == text.size()) return "";  // cut short inside the name: a truncated file, whatever it was
    return text.substr(p, end - p);
}

}  // namespace

bool parse(const std::string& text, Element& root, Error& err) {
    try {
        Element tree;
        parse_or_throw(text, tree);
        root = std::move(tree);
        return true;
    } catch (const Failure& f) {
        err.line = f.line;
        err.message = f.message;
        err.first_element = first_element_name(text);
        return false;
    }
}

}  // namespace xml
}  // namespace sir
}  // namespace ompsim
