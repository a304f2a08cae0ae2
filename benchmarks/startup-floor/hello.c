/* The start-up floor of a C program (benchmarks/startup): prints a line and
 * exits, as `gesturectl --version` does; built with cc -O2. */
#include <stdio.h>

int main(void)
{
	puts("hello 1");
	return 0;
}
