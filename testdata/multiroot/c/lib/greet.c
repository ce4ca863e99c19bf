#include "greet.h"

int greet(struct greeting g) { return g.name != 0; }
