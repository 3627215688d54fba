/*
 * File: mazelib.c
 * ---------------
 * Exercise 1 in C: the maze kept as wall flags per square, read from the map
 * file line by line. Errors go through genlib's Error (printf-style in C).
 */

#include <string.h>
#include "mazelib.h"

#define MAX_LINES 201
#define MAX_CHARS 203

static int width, height;
static pointT start;
static bool walls[MAX_LINES][MAX_CHARS];   /* by map line and column: a wall there */
static bool marks[MAX_LINES][MAX_CHARS];

void ReadMazeMap(string filename) {
    static char text[MAX_LINES][MAX_CHARS];
    FILE *in = fopen(filename, "r");
    if (in == NULL) Error("Can't open %s", filename);
    int n = 0;
    size_t longest = 0;
    char line[MAX_CHARS + 2];
    while (fgets(line, sizeof line, in) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        if (n == MAX_LINES) Error("The maze is too large");
        strcpy(text[n], line);
        if (strlen(line) > longest) longest = strlen(line);
        n++;
    }
    fclose(in);
    while (n > 0 && strspn(text[n - 1], " ") == strlen(text[n - 1])) n--;
    if (n < 3 || n % 2 == 0) Error("The maze file has %d lines: it needs 2H + 1", n);
    if (longest < 3 || longest % 2 == 0) Error("The maze lines must be 2W + 1 long");
    bool found = false;
    for (int r = 0; r < n; r++) {
        size_t len = strlen(text[r]);
        if (len + 1 < longest) Error("Ragged line %d", r + 1);
        for (size_t c = 0; c < longest; c++) {
            char ch = c < len ? text[r][c] : ' ';
            bool cell = r % 2 == 1 && c % 2 == 1;
            bool corner = r % 2 == 0 && c % 2 == 0;
            bool ok = ch == ' ' || (cell && ch == 'S') ||
                      (r % 2 == 0 && c % 2 == 1 && ch == '-') ||
                      (r % 2 == 1 && c % 2 == 0 && ch == '|') ||
                      (corner && (ch == '+' || ch == '-' || ch == '|'));
            if (!ok) Error("Illegal character '%c' at line %d", ch, r + 1);
            walls[r][c] = ch != ' ';
            if (ch == 'S') {
                if (found) Error("The maze has two start squares");
                found = true;
                start.x = (int) c / 2;
                start.y = (n - 1) / 2 - 1 - r / 2;
            }
        }
    }
    if (!found) Error("The maze has no start square");
    width = (int) (longest - 1) / 2;
    height = (n - 1) / 2;
    memset(marks, 0, sizeof marks);
}

pointT GetStartPosition(void) {
    return start;
}

bool OutsideMaze(pointT pt) {
    return pt.x < 0 || pt.y < 0 || pt.x >= width || pt.y >= height;
}

static int Row(pointT pt) {
    if (OutsideMaze(pt)) Error("(%d, %d) is outside the maze", pt.x, pt.y);
    return 2 * (height - 1 - pt.y) + 1;
}

bool WallExists(pointT pt, directionT dir) {
    int r = Row(pt), c = 2 * pt.x + 1;
    switch (dir) {
        case North: return walls[r - 1][c];
        case East:  return walls[r][c + 1];
        case South: return walls[r + 1][c];
        case West:  return walls[r][c - 1];
    }
    return true;
}

void MarkSquare(pointT pt) {
    marks[Row(pt)][2 * pt.x + 1] = true;
}

void UnmarkSquare(pointT pt) {
    marks[Row(pt)][2 * pt.x + 1] = false;
}

bool IsMarked(pointT pt) {
    return marks[Row(pt)][2 * pt.x + 1];
}
