/* missing.c: includes a header that does not exist (a fatal error). */
#include "nowhere.h"
int x;
