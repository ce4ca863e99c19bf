/* shapes.c: deliberate errors and warnings for gcc and clang. */
#include <stdio.h>
#include "shapes.h"

double area(int w, int h) { return w * h; }

int main(void) {
	const char *label = "périmètre"; int unused_n;
	int total = label;
	printf("%d\n", "aire € %s");
	return undefined_thing;
}
