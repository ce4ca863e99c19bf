#include <stdio.h>

#include "mathx/add.h"

int main(void) {
  printf("%d\n", mathx_add(1, 2));
  return 0;
}
