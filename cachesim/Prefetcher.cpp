#include "Prefetcher.h"
