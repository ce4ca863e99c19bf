#include <mathx/add.h>

int mathx_add(int a, int b) { return a + b; }
