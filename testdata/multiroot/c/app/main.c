#include "greet.h"

int main(void) {
  struct greeting g = {"app", 2};
  return greet(g) + g.times;
}
