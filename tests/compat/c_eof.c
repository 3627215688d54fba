/*
 * compat-stds: gnu89 c99 c11 c17
 *
 * GetInteger at end of input (simpio.h, C): the message on standard error,
 * exit status 1; a last line without '\n' still counts; GetLine gives NULL.
 */

#include "genlib.h"
#include "simpio.h"

int main(void)
{
    string line;

    printf("GetInteger %d\n", GetInteger());
    line = GetLine();
    printf("GetLine %s\n", line == NULL ? "NULL" : line);
    printf("How many would you like? ");
    printf("%d\n", GetInteger());
    return 0;
}
