#include "HostCaches.h"
