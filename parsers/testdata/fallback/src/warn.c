/* warn.c: one warning, for make's output. */
int main(void) { int unused; return 0; }
