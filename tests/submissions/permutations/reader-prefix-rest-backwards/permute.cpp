/*
 * labgrade sample: reader-prefix-rest-backwards
 * ---------------------------------------------
 * Permutations as the course reader writes them: RecursivePermute(prefix,
 * rest) carries the letters chosen so far and those still to place, and
 * prints each rearrangement when nothing is left, but it takes the letters
 * of rest from the last to the first, so its lines come in another order
 * than the reader's. It never swaps anything: the strings are passed by
 * value.
 */
#include <iostream>
#include <string>
using namespace std;

void RecursivePermute(string prefix, string rest) {
    if (rest == "") {
        cout << prefix << endl;
    } else {
        for (size_t i = rest.length(); i-- > 0;) {
            string newPrefix = prefix + rest[i];
            string newRest = rest.substr(0, i) + rest.substr(i + 1);
            RecursivePermute(newPrefix, newRest);
        }
    }
}

void ListPermutations(string s) {
    RecursivePermute("", s);
}

int main() {
    ListPermutations("ABC");
    return 0;
}
