// compat-stds: c++11 c++14 c++17
//
// Stanford's collections beside Vector and Grid (issue 29): Set, Map, Stack and Queue,
// Grid's grid(row, col), iterated with range-for and foreach, printed as the course
// library prints them, and error() on an empty Stack or Queue.

#include <iostream>
#include <string>
#include "error.h"
#include "foreach.h"
#include "grid.h"
#include "map.h"
#include "queue.h"
#include "set.h"
#include "stack.h"
using namespace std;

// How many of 1..below the set holds, by recursion (a student's helper taking a Set&).
int countFrom(const Set<int> &s, int below) {
    if (below <= 0) return 0;
    return (s.contains(below) ? 1 : 0) + countFrom(s, below - 1);
}

int main() {
    Set<int> a;
    a.add(3);
    a.add(1);
    a.insert(2);
    a.add(3);
    Set<int> b;
    b += 2;
    b += 5;
    cout << "a = " << a << ", size " << a.size() << ", first " << a.first() << endl;
    cout << "a + b = " << (a + b) << ", a * b = " << (a * b) << ", a - b = " << (a - b) << endl;
    cout << "contains 2: " << a.contains(2) << ", {2} subset: " << (a * b).isSubsetOf(a) << endl;
    cout << "count below 3: " << countFrom(a, 3) << endl;
    int sum = 0;
    foreach (int x in a) sum += x;
    cout << "sum " << sum << endl;

    Map<string, int> m;
    m.put("queens", 8);
    m["knights"] = 64;
    cout << "m = " << m << ", get(rooks) " << m.get("rooks") << ", has queens "
         << m.containsKey("queens") << endl;
    for (const string &k : m) cout << "key " << k << endl;
    cout << "keys " << m.keys() << endl;

    Stack<int> st;
    st.push(1);
    st.push(2);
    st.push(3);
    cout << "stack " << st;
    cout << ", peek " << st.peek();
    cout << ", pop " << st.pop();
    cout << ", size " << st.size() << endl;

    Queue<string> q;
    q.enqueue("first");
    q.enqueue("second");
    cout << "queue " << q;
    cout << ", dequeue " << q.dequeue();
    cout << ", peek " << q.peek() << endl;

    Grid<bool> screen(2, 3);
    screen(1, 2) = true;
    screen[0][1] = true;
    cout << "grid " << screen << ", (1, 2) " << screen(1, 2) << endl;

    try {
        Stack<int> empty;
        empty.pop();
    } catch (ErrorException &e) {
        cout << "caught: " << e.getMessage() << endl;
    }
    try {
        Queue<int> empty;
        empty.peek();
    } catch (ErrorException &e) {
        cout << "caught: " << e.getMessage() << endl;
    }
    return 0;
}
