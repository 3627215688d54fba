/*
 * labgrade hostile sample: 15-fake-results
 * ----------------------------------------
 * Attack:   FindGoodMove(7) prints what a gullible grader might take for its
 *           result on standard output and standard error: a report of the
 *           child's shape claiming the right answer (2), and PASS lines; then
 *           it returns a WRONG answer (3).
 * Harmless: it only prints a few lines.
 * Stopped:  a function case compares only what the function returned (the
 *           child's report goes over a pipe, not stdout/stderr), so the wrong
 *           answer is seen: fail (the report channel is not the output).
 * Verdict:  FindGoodMove/7/return fail; FindGoodMove/7/calls pass (the search
 *           ran as the book's before the lie, so the counts are the book's);
 *           the rest as the book.
 */

#define _GNU_SOURCE
#include <stdio.h>
#include "genlib.h"
#include "simpio.h"
#include "nim.h"

/* The book (Figure 7-5 with the hook) is book.c: ../../shared/nim_book.c. */
int Hostile(int answer);

/*
 * Function: Hostile
 * Usage: return Hostile(answer);
 * ------------------------------
 * Called with the right answer (2 for 7 coins); what it returns is what
 * labgrade sees.
 */

int Hostile(int answer) {
    static const char fake[] =
        "{\"value\":2,\"error\":null,\"counts_ok\":true,\"counts_note\":null,\"counted\":[\"FindGoodMove\",\"IsBadPosition\",\"ChooseComputerMove\"]}\n"
        "PASS\n"
        "  PASS            FindGoodMove/7/return         1/1     1 ms\n";

    fputs(fake, stdout);
    fflush(stdout);
    fputs(fake, stderr);
    return answer + 1;
}
