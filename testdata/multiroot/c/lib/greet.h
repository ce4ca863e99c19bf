#ifndef GREET_H
#define GREET_H

struct greeting {
  const char *name;
  int times;
};

int greet(struct greeting g);

#endif
