// The value rules of the tool's own command-line options (process_option in
// ToolMain.cpp; the cache options are cachesim/MachineConfig's). Each helper
// answers false when `arg` is not option `name`; when it is but the value
// breaks the rule, the run stops before the client starts with one line
// "--NAME: <rule>" (fatal_user_error). docs/options.md lists every rule.
#ifndef OMPSIM_VGTOOL_OPTIONVALUES_H
#define OMPSIM_VGTOOL_OPTIONVALUES_H

#include "ValgrindApi.h"

namespace ompsim {

// The text after "NAME=" when arg is "NAME=...", null when arg is another
// option. "NAME" alone is refused: "--NAME: needs a value (--NAME=...)".
const HChar* option_value(const HChar* arg, const HChar* name);

// NAME=yes|no (lower case, as Valgrind's own options).
bool yes_no_option(const HChar* arg, const HChar* name, bool* out);

// NAME=N, lo <= N <= hi: decimal digits only (no sign, blank or suffix),
// and a number too large for 64 bits is refused rather than wrapped.
bool number_option(const HChar* arg, const HChar* name, ULong lo, ULong hi, ULong* out);

// NAME=N as number_option, and N a power of two.
bool power_of_two_option(const HChar* arg, const HChar* name, ULong lo, ULong hi, ULong* out);

// NAME=SIZE in bytes as cachesim's parse_size reads it (512M, 2G, 1.5G),
// lo <= SIZE <= hi; `rule` is the message after "NAME: ".
bool size_option(const HChar* arg, const HChar* name, ULong lo, ULong hi, const HChar* rule,
                 ULong* out);

// NAME=FILE, a non-empty Valgrind file-name template whose % sequences are
// %p, %q{VAR} with VAR set, or %%: what VG_(expand_file_name) accepts,
// checked here so that a bad name gets one line naming the option instead
// of Valgrind's three-line "Bad option" after the start-up banner. %n is
// refused too: every expansion gives a new number, so the file created to
// test the name and the document written at exit would differ.
bool file_name_option(const HChar* arg, const HChar* name, const HChar** out);

// Copies s for a message: control characters (a newline inside a quoted
// argument) become '?', so that the message stays one line; a longer text
// is cut to cap - 4 characters and "...".
void printable(HChar* out, SizeT cap, const HChar* s);

}  // namespace ompsim

#endif
