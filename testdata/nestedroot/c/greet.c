#include <stdio.h>

#include "greet.h"

void greet(const char *name) { printf("hello %s\n", name); }
