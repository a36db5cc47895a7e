// Reading XML with TinyXML-2, and the escaping of sir/ (see XmlTree.h).
#include "XmlTree.h"

#include <tinyxml2.h>

#include <cstdio>
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

std::string excerpt(const std::string& s, size_t max_bytes) {
    std::string out;
    size_t n = s.size();
    bool cut = false;
    if (n > max_bytes) {
        n = max_bytes;
        // Do not cut a UTF-8 sequence in two.
        while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
        cut = true;
    }
    for (size_t i = 0; i < n; ++i) {
        unsigned char u = static_cast<unsigned char>(s[i]);
        out += (u < 0x20 || u == 0x7F) ? '?' : s[i];
    }
    if (cut) out += "...";
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

void parse_or_throw(const std::string& text, Element& root) {
    size_t p = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // byte order mark
    while (p < text.size() && is_space(text[p])) ++p;
    if (p == text.size()) throw Failure{0, "empty file"};
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
        return false;
    }
}

}  // namespace xml
}  // namespace sir
}  // namespace ompsim
