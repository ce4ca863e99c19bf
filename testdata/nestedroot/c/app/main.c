#include "greet.h"

int main(void) {
  greet("app");
  return 0;
}
