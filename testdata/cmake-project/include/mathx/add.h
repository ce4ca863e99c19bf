#ifndef MATHX_ADD_H
#define MATHX_ADD_H

/* mathx_add returns a + b. */
int mathx_add(int a, int b);

#endif
