#include "greet.h"

/* loud is a second caller of greet, one the tests never open. */
void loud(void) {
  greet("everyone");
}
