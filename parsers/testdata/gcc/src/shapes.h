/* shapes.h: a header whose declaration conflicts with shapes.c. */
int area(int w, int h);
