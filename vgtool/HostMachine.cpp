#include "HostMachine.h"
