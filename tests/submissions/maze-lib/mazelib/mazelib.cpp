/*
 * File: mazelib.cpp
 * -----------------
 * Exercise 1: an implementation of the mazelib.h interface. The maze is kept
 * as the lines of the map file; a square (x, y) is at line 2(H - 1 - y) + 1,
 * column 2x + 1, and the wall on one of its sides is the character next to it.
 */

#include <fstream>
#include <vector>
#include "mazelib.h"

static vector<string> lines;    // the map, every line padded to full width
static int width, height;       // in squares
static pointT start;
static vector<bool> marks;

static char At(int row, int col) {
    return lines[row][col];
}

void ReadMazeMap(string filename) {
    ifstream in(filename.c_str());
    if (in.fail()) Error("Can't open " + filename);
    vector<string> text;
    string line;
    while (getline(in, line)) {
        if (!line.empty() && line[line.size() - 1] == '\r') line.erase(line.size() - 1);
        text.push_back(line);
    }
    while (!text.empty() && text.back().find_first_not_of(' ') == string::npos) text.pop_back();
    if (text.size() < 3 || text.size() % 2 == 0) Error("The maze file must have 2H + 1 lines");
    size_t longest = 0;
    for (size_t i = 0; i < text.size(); i++) longest = max(longest, text[i].size());
    if (longest < 3 || longest % 2 == 0) Error("The maze lines must have 2W + 1 characters");
    for (size_t i = 0; i < text.size(); i++) {
        if (text[i].size() + 1 < longest) Error("Ragged lines in the maze file");
        text[i].resize(longest, ' ');
    }
    width = (longest - 1) / 2;
    height = (text.size() - 1) / 2;
    bool found = false;
    for (size_t r = 0; r < text.size(); r++) {
        for (size_t c = 0; c < longest; c++) {
            char ch = text[r][c];
            bool cell = r % 2 == 1 && c % 2 == 1;
            bool hwall = r % 2 == 0 && c % 2 == 1;
            bool vwall = r % 2 == 1 && c % 2 == 0;
            bool ok = ch == ' ' || (cell && ch == 'S') || (hwall && ch == '-') ||
                      (vwall && ch == '|') || (!cell && !hwall && !vwall && ch != 'S' &&
                                               (ch == '+' || ch == '-' || ch == '|'));
            if (!ok) Error(string("Illegal character in the maze file: ") + ch);
            if (ch == 'S') {
                if (found) Error("The maze has more than one start square");
                found = true;
                start.x = c / 2;
                start.y = height - 1 - (int) r / 2;
            }
        }
    }
    if (!found) Error("The maze has no start square");
    lines = text;
    marks.assign(width * height, false);
}

pointT GetStartPosition() {
    return start;
}

bool OutsideMaze(pointT pt) {
    return pt.x < 0 || pt.y < 0 || pt.x >= width || pt.y >= height;
}

bool WallExists(pointT pt, directionT dir) {
    if (OutsideMaze(pt)) Error("WallExists: the point is outside the maze");
    int row = 2 * (height - 1 - pt.y) + 1, col = 2 * pt.x + 1;
    switch (dir) {
        case North: return At(row - 1, col) != ' ';
        case East:  return At(row, col + 1) != ' ';
        case South: return At(row + 1, col) != ' ';
        case West:  return At(row, col - 1) != ' ';
    }
    return true;
}

static int Index(pointT pt, string what) {
    if (OutsideMaze(pt)) Error(what + ": the point is outside the maze");
    return pt.y * width + pt.x;
}

void MarkSquare(pointT pt) {
    marks[Index(pt, "MarkSquare")] = true;
}

void UnmarkSquare(pointT pt) {
    marks[Index(pt, "UnmarkSquare")] = false;
}

bool IsMarked(pointT pt) {
    return marks[Index(pt, "IsMarked")];
}
