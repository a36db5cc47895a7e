// The tool's output files: the profile document (and its dumps), the
// Cachegrind-format file and the --ospg-log file (docs/output-format.md,
// "Output files"). Three rules:
// - a file is claimed before the client runs, so that a missing or
//   unwritable directory stops the run at once instead of losing it at exit;
// - a name without %p never replaces an existing file (nor, after a fork,
//   the parent's), unless --output-overwrite=yes;
// - a file appears under its name only complete: the content is staged in a
//   temporary file, then copied with every write checked into a temporary
//   file next to the real one, which is renamed over it. A full disk or any
//   other write error leaves no file that could pass for a result, gives one
//   line naming the file, and makes the tool exit non-zero.
#ifndef OMPSIM_VGTOOL_OUTPUTFILES_H
#define OMPSIM_VGTOOL_OUTPUTFILES_H

#include "ValgrindApi.h"

namespace ompsim {
namespace outfiles {

void set_overwrite(bool yes);  // --output-overwrite=yes|no

// Whether a name template holds %p (each process then gets its own name).
bool has_pid(const HChar* name_template);

// Before the client runs: expands the template and creates the file empty.
// Stops the run with one line (after removing the files claimed before)
// when it cannot be created or would replace an existing file against the
// rules. A device or a pipe (/dev/stdout) is neither created nor replaced.
// Returns the expanded path (VG_(malloc)ed).
HChar* claim(const HChar* option, const HChar* name_template);

// The process is a child of fork(): outputs of names without %p belong to
// the parent from now on.
void forked();

// Whether this process may write `path`, the file of `option` named by
// `name_template`; `claimed`: the file was claimed at start (else it must not
// exist). Says why not, in one line, when it may not.
bool may_write(const HChar* option, const HChar* name_template, const HChar* path, bool claimed);

struct Output {
    VgFile* fp;          // where the writer prints, between open and commit
    const HChar* option;
    const HChar* path;
    HChar* stage;        // the staging file
};

// Opens the staging file for `path`; false (and one line) if none can be made.
bool open(Output& o, const HChar* option, const HChar* path);

// Puts the staged content under its name if it is complete (its last line
// begins with `last_line`, so a staging disk that filled up is noticed too)
// and every write succeeded; else removes what it wrote (and the empty file
// claimed at start) and says so in one line. Removes the staging file.
bool commit(Output& o, const HChar* last_line);

// Whether any output failed: the tool then exits with status 1 (unless the
// program's own status is already non-zero).
bool any_failed();

}  // namespace outfiles
}  // namespace ompsim

#endif
