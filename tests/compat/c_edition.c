/*
 * compat-stds: gnu89 c99 c11 c17
 *
 * Roberts' C edition: genlib.h, simpio.h, strlib.h, random.h, graphics.h,
 * extgraph.h from C, in the C edition's style (static functions, TRUE and
 * FALSE, string = char *, declarations first). Ends with a game of nim per
 * Figure 7-5 on the input of Figure 7-4 (after the lines the other parts read).
 */

#include <stdio.h>
#include "genlib.h"
#include "simpio.h"
#include "strlib.h"
#include "random.h"
#include "graphics.h"
#include "extgraph.h"

#define NCoins 13
#define MaxTake 3
#define NoGoodMove -1

typedef struct nodeT {
    int value;
    struct nodeT *next;
} nodeT, *nodeP;

static int FindGoodMove(int nCoins);
static bool IsBadPosition(int nCoins);

static int FindGoodMove(int nCoins)
{
    int nTaken;

    for (nTaken = 1; nTaken <= MaxTake; nTaken++) {
        if (IsBadPosition(nCoins - nTaken)) return (nTaken);
    }
    return (NoGoodMove);
}

static bool IsBadPosition(int nCoins)
{
    if (nCoins == 1) return (TRUE);
    return (FindGoodMove(nCoins) == NoGoodMove);
}

static void TestGenlib(void)
{
    nodeP node;
    int *array, i, sum;
    bool flag;
    string s;
    genericPtrT marker;

    node = New(nodeP);
    node->value = 7;
    node->next = NULL;
    array = NewArray(5, int);
    sum = 0;
    for (i = 0; i < 5; i++) {
        array[i] = i * i;
        sum += array[i];
    }
    flag = TRUE;
    s = "a string";
    printf("genlib: node %d, sum %d, TRUE %d, FALSE %d, flag %s, %s\n", node->value, sum,
           TRUE, FALSE, flag ? "true" : "false", s);
    marker = UNDEFINED;
    printf("genlib: UNDEFINED %s\n", marker == UNDEFINED && marker != (genericPtrT) node
                                      ? "is its own address" : "is wrong");
    FreeBlock(array);
    FreeBlock(node);
    i = 0;
    repeat {
        if (++i == 3) break;
    }
    printf("genlib: repeat ran %d times\n", i);
}

static void TestSimpio(void)
{
    string line;
    int n;
    double d;

    line = GetLine();
    printf("simpio: GetLine \"%s\"\n", line);
    free(line);
    n = GetInteger();
    printf("simpio: GetInteger %d\n", n);
    d = GetReal();
    printf("simpio: GetReal %g\n", d);
    line = ReadLine(stdin);
    printf("simpio: ReadLine \"%s\"\n", line);
    free(line);
}

static void TestStrlib(void)
{
    string s;

    s = Concat("Hello, ", "world");
    printf("strlib: Concat \"%s\", StringLength %d, IthChar(s, 4) '%c'\n", s,
           StringLength(s), IthChar(s, 4));
    printf("strlib: SubString \"%s\" \"%s\" \"%s\"\n", SubString(s, 0, 4), SubString(s, 7, 100),
           SubString(s, 5, 2));
    printf("strlib: CharToString \"%s\", CopyString \"%s\"\n", CharToString('x'), CopyString(s));
    printf("strlib: StringEqual %d %d, StringCompare %s\n", StringEqual(s, "Hello, world"),
           StringEqual(s, "hello"), StringCompare("abc", "abd") < 0 ? "<" : ">=");
    printf("strlib: FindChar %d %d %d, FindString %d %d\n", FindChar('o', s, 0),
           FindChar('o', s, 5), FindChar('z', s, 0), FindString("world", s, 0),
           FindString("Hello", s, 1));
    printf("strlib: \"%s\" \"%s\"\n", ConvertToLowerCase(s), ConvertToUpperCase(s));
    printf("strlib: IntegerToString \"%s\", StringToInteger %d, RealToString \"%s\", "
           "StringToReal %g\n", IntegerToString(-42), StringToInteger(" 17 "),
           RealToString(3.25), StringToReal("2.5e1"));
}

static void TestRandom(void)
{
    int i, a[5], b[5], inRange;
    bool same;
    double r;

    Randomize();
    for (i = 0; i < 5; i++) a[i] = RandomInteger(1, 6);
    Randomize();
    for (i = 0; i < 5; i++) b[i] = RandomInteger(1, 6);
    same = TRUE;
    for (i = 0; i < 5; i++) {
        if (a[i] != b[i]) same = FALSE;
    }
    inRange = 0;
    for (i = 0; i < 1000; i++) {
        r = RandomReal(2.0, 3.0);
        if (r >= 2.0 && r < 3.0 && RandomInteger(-3, 3) >= -3) inRange++;
    }
    printf("random: Randomize reproducible %s, in range %d/1000, RandomChance(0) %d, "
           "RandomChance(1) %d\n", same ? "yes" : "no", inRange, RandomChance(0.0),
           RandomChance(1.0));
}

static void TestGraphics(void)
{
    InitGraphics();
    MovePen(1.0, 2.0);
    DrawLine(0.5, 0.25);
    DrawArc(1.0, 0, 180);
    printf("graphics: window %gx%g, pen (%.3f, %.3f)\n", GetWindowWidth(), GetWindowHeight(),
           GetCurrentX(), GetCurrentY());
    SetPenColor("Red");
    SetFont("Times");
    SetPointSize(14);
    SetStyle(Bold + Italic);
    SetPenSize(2);
    StartFilledRegion(0.5);
    DrawEllipticalArc(1.0, 0.5, 90, 90);
    EndFilledRegion();
    DrawTextString("abc");
    UpdateDisplay();
    Pause(10.0);
    WaitForMouseDown();
    WaitForMouseUp();
    printf("extgraph: %s %s %d %d %d, pen (%.3f, %.3f), text %.2f, mouse %d (%g, %g)\n",
           GetPenColor(), GetFont(), GetPointSize(), GetStyle(), GetPenSize(), GetCurrentX(),
           GetCurrentY(), TextStringWidth("abcd"), MouseButtonIsDown(), GetMouseX(),
           GetMouseY());
    printf("extgraph: ascent %.3f, resolution %g, title \"%s\"\n", GetFontAscent(),
           GetXResolution(), GetWindowTitle());
}

static void PlayNim(void)
{
    int nCoins, nTaken;
    bool humanTurn;

    nCoins = NCoins;
    humanTurn = TRUE;
    while (nCoins > 1) {
        printf("There are %d coins in the pile.\n", nCoins);
        if (humanTurn) {
            printf("How many would you like? ");
            nTaken = GetInteger();
        } else {
            nTaken = FindGoodMove(nCoins);
            if (nTaken == NoGoodMove) nTaken = 1;
            printf("I'll take %d.\n", nTaken);
        }
        humanTurn = !humanTurn;
        nCoins -= nTaken;
    }
    printf("There is only one coin left.\n");
    printf(humanTurn ? "I win.\n" : "I lose.\n");
}

int main()
{
    TestGenlib();
    TestSimpio();
    TestStrlib();
    TestRandom();
    TestGraphics();
    PlayNim();
    return (0);
}
