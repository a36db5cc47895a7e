// Placeholder: filled in by the issue 7 work.
#include "Report.h"
