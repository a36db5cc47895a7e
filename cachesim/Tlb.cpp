#include "Tlb.h"
