/*
 * labgrade sample: sized-array-no-adapter
 * ---------------------------------------
 * A turnpike on a distance set of its own with its size beside it,
 * turnpike(int x[], int D[], int m, unsigned int n), and no labgrade_turnpike adapter:
 * neither labgrade's D nor a form labgrade knows how to pass (which of the ints is the size,
 * and is D sorted?). It is never called: every case is missing-symbol, and the message
 * shows its signature and offers the adapter.
 */
#define TRUE 1
#define FALSE 0

int place(int x[], int D[], int m, unsigned int n, int left, int right)
{
    (void) x; (void) D; (void) m; (void) n; (void) left; (void) right;
    return TRUE;
}

int turnpike(int x[], int D[], int m, unsigned int n)
{
    x[1] = 0;
    x[n] = D[m - 1];
    return place(x, D, m - 1, n, 2, (int) n - 1);
}
