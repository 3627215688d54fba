/* The handout's code, as written: genlib's string, strlib's StringLength, static. */
#include <stdio.h>
#include "genlib.h"
#include "strlib.h"
#include "permute.h"

static void Swap(char *a, char *b)
{
    char tmp = *a;
    *a = *b;
    *b = tmp;
}

static void RecursivePermute(string s, int k)
{
    int i;

    if (k == StringLength(s))
        printf("%s\n", s);
    else {
        for (i = k; i <= StringLength(s); i++) {
            Swap(&s[k], &s[i]);
            RecursivePermute(s, k+1);
            Swap(&s[k], &s[i]);
        }
    }
}
