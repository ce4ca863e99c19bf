#ifndef GREET_H
#define GREET_H

/* greet prints a greeting for name. */
void greet(const char *name);

#endif
