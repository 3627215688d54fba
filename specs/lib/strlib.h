/*
 * File: strlib.h
 * --------------
 * Imitates strlib.h, the string library of Eric Roberts' libraries (C
 * edition and C++ edition) and, in C++, of Stanford's later C++ libraries.
 * labgrade provides it so that the books' programs, and students' programs
 * written against any of these, compile unchanged. Everything is defined in
 * the header (static in C, inline in C++): nothing to link, no -Wall -Wextra
 * warning for code that includes it without calling anything. Nothing here
 * is a no-op.
 *
 * C (the C edition; includes genlib.h, as the original does). Every string
 * returned is new, from malloc (the original never frees them either):
 *   Concat(s1, s2)  CharToString(ch)  StringLength(s)  IthChar(s, i)
 *   SubString(s, p1, p2)   characters p1..p2 inclusive; p1 < 0 counts as 0,
 *                          p2 past the end as the last; "" when p2 < p1
 *   CopyString(s)  StringEqual(s1, s2)  StringCompare(s1, s2)
 *   FindChar(ch, text, start)  FindString(str, text, start)   index or -1
 *   ConvertToLowerCase(s)  ConvertToUpperCase(s)
 *   IntegerToString(n)  StringToInteger(s)  RealToString(d) ("%G")
 *   StringToReal(s)
 *   IthChar and SubString on a bad index, StringToInteger and StringToReal
 *   on a string that is not a number call Error (genlib.h), as the original.
 *
 * C++:
 *   Roberts' C++ edition: IntegerToString, StringToInteger, RealToString,
 *   StringToReal, ConvertToLowerCase, ConvertToUpperCase. Bad numbers call
 *   Roberts' Error (the same as genlib.h's, through lg_error_hook).
 *   Stanford's: integerToString, stringToInteger, realToString,
 *   stringToReal, stringIsInteger, stringIsReal, toUpperCase, toLowerCase,
 *   trim, trimStart, trimEnd, startsWith, endsWith, equalsIgnoreCase,
 *   stringContains, stringIndexOf, stringReplace, charToString,
 *   boolToString, stringSplit (a std::vector<std::string>; Stanford's
 *   Vector<string> of vector.h converts from it). Bad numbers call
 *   Stanford's error() (error.h: throws ErrorException).
 *   This header does NOT say "using namespace std;" (Stanford's does not;
 *   Roberts' C++ students get it from genlib.h).
 */

#ifndef LABGRADE_STRLIB_H
#define LABGRADE_STRLIB_H

#ifdef __cplusplus

#include "lg_errorhook.h"
#include "error.h"
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

/* ---- Shared parsing: the whole string is the number (blanks around it allowed). */

/* s without its leading and trailing whitespace */
inline std::string StrlibTrim_(const std::string &s) {
    size_t start = 0, end = s.size();
    while (start < end && std::isspace((unsigned char) s[start])) start++;
    while (end > start && std::isspace((unsigned char) s[end - 1])) end--;
    return s.substr(start, end - start);
}

inline bool StrlibParseInteger_(const std::string &s, int &value, int radix = 10) {
    std::string t = StrlibTrim_(s);
    if (t.empty() || t.find('\0') != std::string::npos) return false;
    if (std::isspace((unsigned char) t[t.size() > 1 && (t[0] == '+' || t[0] == '-') ? 1 : 0])) {
        return false; /* no blank between the sign and the digits */
    }
    char *end;
    errno = 0;
    long long n = std::strtoll(t.c_str(), &end, radix);
    if (*end != '\0' || errno == ERANGE || n < INT_MIN || n > INT_MAX) return false;
    value = (int) n;
    return true;
}

inline bool StrlibParseReal_(const std::string &s, double &value) {
    std::string t = StrlibTrim_(s);
    if (t.empty() || t.find('\0') != std::string::npos) return false;
    char *end;
    double d = std::strtod(t.c_str(), &end);
    if (*end != '\0') return false;
    value = d;
    return true;
}

inline std::string StrlibRealToString_(double d) {
    std::ostringstream stream;
    stream << d;
    return stream.str();
}

/* ---- Roberts, C++ edition */

inline std::string IntegerToString(int n) {
    std::ostringstream stream;
    stream << n;
    return stream.str();
}

inline int StringToInteger(std::string s) {
    int value = 0;
    if (!StrlibParseInteger_(s, value)) {
        std::cout.flush();
        lg_error_text(("StringToInteger: Illegal integer format (" + s + ")").c_str());
    }
    return value;
}

inline std::string RealToString(double d) {
    return StrlibRealToString_(d);
}

inline double StringToReal(std::string s) {
    double value = 0;
    if (!StrlibParseReal_(s, value)) {
        std::cout.flush();
        lg_error_text(("StringToReal: Illegal floating-point format (" + s + ")").c_str());
    }
    return value;
}

inline std::string ConvertToLowerCase(std::string s) {
    for (size_t i = 0; i < s.size(); i++) {
        s[i] = (char) std::tolower((unsigned char) s[i]);
    }
    return s;
}

inline std::string ConvertToUpperCase(std::string s) {
    for (size_t i = 0; i < s.size(); i++) {
        s[i] = (char) std::toupper((unsigned char) s[i]);
    }
    return s;
}

/* ---- Stanford */

inline std::string integerToString(int n, int radix = 10) {
    if (radix == 10) return IntegerToString(n);
    if (radix < 2 || radix > 36) error("integerToString: Illegal radix");
    bool negative = n < 0;
    unsigned long long magnitude = negative ? 0ULL - (unsigned long long) (long long) n
                                            : (unsigned long long) n;
    std::string digits;
    do {
        digits.insert(digits.begin(), "0123456789abcdefghijklmnopqrstuvwxyz"[magnitude % radix]);
        magnitude /= radix;
    } while (magnitude > 0);
    return negative ? "-" + digits : digits;
}

inline bool stringIsInteger(const std::string &s, int radix = 10) {
    int value;
    if (radix < 2 || radix > 36) return false;
    return StrlibParseInteger_(s, value, radix);
}

inline int stringToInteger(const std::string &s, int radix = 10) {
    int value = 0;
    if (radix < 2 || radix > 36) error("stringToInteger: Illegal radix");
    if (!StrlibParseInteger_(s, value, radix)) {
        error("stringToInteger: Illegal integer format (" + s + ")");
    }
    return value;
}

inline std::string realToString(double d) {
    return StrlibRealToString_(d);
}

inline bool stringIsReal(const std::string &s) {
    double value;
    return StrlibParseReal_(s, value);
}

inline double stringToReal(const std::string &s) {
    double value = 0;
    if (!StrlibParseReal_(s, value)) {
        error("stringToReal: Illegal floating-point format (" + s + ")");
    }
    return value;
}

inline double stringToDouble(const std::string &s) {
    return stringToReal(s);
}

inline std::string doubleToString(double d) {
    return realToString(d);
}

inline std::string toLowerCase(const std::string &s) {
    return ConvertToLowerCase(s);
}

inline std::string toUpperCase(const std::string &s) {
    return ConvertToUpperCase(s);
}

inline std::string trimStart(const std::string &s) {
    size_t start = 0;
    while (start < s.size() && std::isspace((unsigned char) s[start])) start++;
    return s.substr(start);
}

inline std::string trimEnd(const std::string &s) {
    size_t end = s.size();
    while (end > 0 && std::isspace((unsigned char) s[end - 1])) end--;
    return s.substr(0, end);
}

inline std::string trim(const std::string &s) {
    return trimEnd(trimStart(s));
}

inline bool startsWith(const std::string &str, const std::string &prefix) {
    return str.size() >= prefix.size() && str.compare(0, prefix.size(), prefix) == 0;
}

inline bool startsWith(const std::string &str, char prefix) {
    return !str.empty() && str[0] == prefix;
}

inline bool endsWith(const std::string &str, const std::string &suffix) {
    return str.size() >= suffix.size()
        && str.compare(str.size() - suffix.size(), suffix.size(), suffix) == 0;
}

inline bool endsWith(const std::string &str, char suffix) {
    return !str.empty() && str[str.size() - 1] == suffix;
}

inline bool equalsIgnoreCase(const std::string &s1, const std::string &s2) {
    return ConvertToLowerCase(s1) == ConvertToLowerCase(s2);
}

inline bool stringContains(const std::string &s, const std::string &part) {
    return s.find(part) != std::string::npos;
}

inline int stringIndexOf(const std::string &s, const std::string &part, int startIndex = 0) {
    size_t index = s.find(part, startIndex < 0 ? 0 : (size_t) startIndex);
    return index == std::string::npos ? -1 : (int) index;
}

inline std::string stringReplace(const std::string &str, const std::string &old,
                                 const std::string &replacement, int limit = -1) {
    std::string result = str;
    if (old.empty()) return result;
    size_t at = 0;
    int count = 0;
    while ((limit < 0 || count < limit)
           && (at = result.find(old, at)) != std::string::npos) {
        result.replace(at, old.size(), replacement);
        at += replacement.size();
        count++;
    }
    return result;
}

inline std::string charToString(char c) {
    return std::string(1, c);
}

inline std::string boolToString(bool b) {
    return b ? "true" : "false";
}

inline std::vector<std::string> stringSplit(const std::string &str,
                                            const std::string &delimiter,
                                            int limit = -1) {
    std::vector<std::string> result;
    if (delimiter.empty()) {
        result.push_back(str);
        return result;
    }
    size_t start = 0;
    while (limit < 0 || (int) result.size() + 1 < limit) {
        size_t at = str.find(delimiter, start);
        if (at == std::string::npos) break;
        result.push_back(str.substr(start, at - start));
        start = at + delimiter.size();
    }
    result.push_back(str.substr(start));
    return result;
}

#else /* C: the C edition */

#include "genlib.h"
#include <ctype.h>
#include <string.h>

#define STRLIB_FN_ __attribute__((unused)) static

STRLIB_FN_ string StrlibNew_(size_t length) {
    return (string) GetBlock(length + 1);
}

STRLIB_FN_ string CopyString(const char *s) {
    size_t length = strlen(s);
    string result = StrlibNew_(length);
    memcpy(result, s, length + 1);
    return result;
}

STRLIB_FN_ string Concat(const char *s1, const char *s2) {
    size_t len1 = strlen(s1), len2 = strlen(s2);
    string result = StrlibNew_(len1 + len2);
    memcpy(result, s1, len1);
    memcpy(result + len1, s2, len2 + 1);
    return result;
}

STRLIB_FN_ int StringLength(const char *s) {
    return (int) strlen(s);
}

STRLIB_FN_ char IthChar(const char *s, int i) {
    int len = (int) strlen(s);
    if (i < 0 || i > len) Error("Index outside of string range in IthChar");
    return s[i];
}

STRLIB_FN_ string SubString(const char *s, int p1, int p2) {
    int len = (int) strlen(s);
    string result;
    if (p1 < 0) p1 = 0;
    if (p2 >= len) p2 = len - 1;
    if (p2 < p1) return CopyString("");
    result = StrlibNew_((size_t) (p2 - p1 + 1));
    memcpy(result, s + p1, (size_t) (p2 - p1 + 1));
    result[p2 - p1 + 1] = '\0';
    return result;
}

STRLIB_FN_ string CharToString(char ch) {
    string result = StrlibNew_(1);
    result[0] = ch;
    result[1] = '\0';
    return result;
}

STRLIB_FN_ bool StringEqual(const char *s1, const char *s2) {
    return strcmp(s1, s2) == 0;
}

STRLIB_FN_ int StringCompare(const char *s1, const char *s2) {
    return strcmp(s1, s2);
}

STRLIB_FN_ int FindChar(char ch, const char *text, int start) {
    int len = (int) strlen(text);
    const char *cptr;
    if (start < 0) start = 0;
    if (start > len) return -1;
    cptr = strchr(text + start, ch);
    if (cptr == NULL || ch == '\0') return -1;
    return (int) (cptr - text);
}

STRLIB_FN_ int FindString(const char *str, const char *text, int start) {
    int len = (int) strlen(text);
    const char *cptr;
    if (start < 0) start = 0;
    if (start > len) return -1;
    cptr = strstr(text + start, str);
    if (cptr == NULL) return -1;
    return (int) (cptr - text);
}

STRLIB_FN_ string ConvertToLowerCase(const char *s) {
    string result = CopyString(s);
    int i;
    for (i = 0; result[i] != '\0'; i++) result[i] = (char) tolower((unsigned char) result[i]);
    return result;
}

STRLIB_FN_ string ConvertToUpperCase(const char *s) {
    string result = CopyString(s);
    int i;
    for (i = 0; result[i] != '\0'; i++) result[i] = (char) toupper((unsigned char) result[i]);
    return result;
}

STRLIB_FN_ string IntegerToString(int n) {
    char buffer[32];
    __builtin_snprintf(buffer, sizeof buffer, "%d", n);
    return CopyString(buffer);
}

STRLIB_FN_ int StringToInteger(const char *s) {
    long value;
    char *end;
    const char *p = s;
    while (isspace((unsigned char) *p)) p++;
    value = strtol(p, &end, 10);
    if (end == p) Error("StringToInteger called on illegal number %s", s);
    while (isspace((unsigned char) *end)) end++;
    if (*end != '\0' || value < -2147483647L - 1 || value > 2147483647L) {
        Error("StringToInteger called on illegal number %s", s);
    }
    return (int) value;
}

STRLIB_FN_ string RealToString(double d) {
    char buffer[64];
    __builtin_snprintf(buffer, sizeof buffer, "%G", d);
    return CopyString(buffer);
}

STRLIB_FN_ double StringToReal(const char *s) {
    double value;
    char *end;
    const char *p = s;
    while (isspace((unsigned char) *p)) p++;
    value = strtod(p, &end);
    if (end == p) Error("StringToReal called on illegal number %s", s);
    while (isspace((unsigned char) *end)) end++;
    if (*end != '\0') Error("StringToReal called on illegal number %s", s);
    return value;
}

#undef STRLIB_FN_

#endif /* __cplusplus */

#endif /* LABGRADE_STRLIB_H */
