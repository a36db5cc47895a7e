// Private to sir/: reads a document with TinyXML-2 into a small element tree
// with line numbers, and the escaping used by the canonical writer.
//
// TinyXML-2 (9.0) does the parsing: elements, attributes in either quotes,
// the five predefined entities and character references, CDATA sections,
// comments, processing instructions, a byte order mark, CRLF line ends. Text
// and attribute values are kept as written (PRESERVE_WHITESPACE; a tab stays a
// tab). Two things are added around it:
//
//  * TinyXML-2 9 drops character data made only of white space even with
//    PRESERVE_WHITESPACE (version 10 added PEDANTIC_WHITESPACE for this), so
//    `<arg> </arg>` would read back as "". White space that is the whole
//    content before an end tag is therefore handed to TinyXML-2 as a CDATA
//    section (same text, same lines); see protect_blank_text in XmlTree.cpp.
//  * Checks TinyXML-2 leaves out and a profile reader needs: an empty file,
//    a file that is not XML at all, control characters (a NUL would end
//    TinyXML-2's input early), a missing or second root element.
//
// TinyXML-2 is more lenient than XML 1.0: it accepts a bare '&', unknown
// entities (kept as written), '<' in attribute values, attributes without
// white space between them, text outside the root element when markup
// follows it, misplaced XML declarations, any encoding declaration; it
// rejects processing instructions after anything but the XML declaration.
// The schema (docs/ompsim-profile.xsd with xmllint) is the strict check.
#ifndef OMPSIM_SIR_XMLTREE_H
#define OMPSIM_SIR_XMLTREE_H

#include <string>
#include <vector>

namespace ompsim {
namespace sir {
namespace xml {

struct Attribute {
    std::string name;
    std::string value;  // references resolved
    int line = 0;       // line of the attribute name
};

struct Element {
    std::string name;
    int line = 0;  // line of the '<' that opens the element
    std::vector<Attribute> attributes;
    std::vector<Element> children;  // child elements, in document order
    std::string text;               // character data directly inside (CDATA included)

    const Attribute* attribute(const char* name) const;
};

struct Error {
    int line = 0;  // 0: the whole file (empty)
    std::string message;
    // The name of the first element when the text has one, even if it is not
    // well-formed (a reader can say "not my document" rather than give an
    // XML error about an HTML page); "" when there is none.
    std::string first_element;
};

// Parses a whole document into `root` (its root element). Messages:
//   "empty file"                                   (line 0)
//   "not an XML document (it starts with '...')"
//   "not an XML document (binary data: <what it looks like>, it starts with
//                         bytes 7F 45 4C 46 ...)"
//   "not an XML document (UTF-16 text; ...)"
//   "XML error: <what> (<TinyXML-2 error name>)"   at TinyXML-2's error line,
//                      ending in " (the file may be truncated)" when the file
//                      looks cut short
//   "XML error: character 0x01 is not allowed in XML"
//   "XML error: a second root element after </name>"
//   "XML error: the file ends before the root element (the file may be truncated)"
bool parse(const std::string& text, Element& root, Error& err);

// Appends `s` escaped for an attribute value or text: & < > " become
// entities, bytes 0x00-0x1F other than tab become '?', nothing else changes.
void append_escaped(std::string& out, const std::string& s);

// `s` shortened and made printable for a message (control bytes and bytes
// that are not valid UTF-8 become '?').
std::string excerpt(const std::string& s, size_t max_bytes = 40);

}  // namespace xml
}  // namespace sir
}  // namespace ompsim

#endif
