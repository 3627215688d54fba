/*
 * File: console.h
 * ---------------
 * Imitates console.h of Stanford's C++ libraries (CS106B/X, 2011 on), which
 * opens a graphical console window and configures it. labgrade provides it
 * so that students' programs that include it compile unchanged. Under
 * labgrade the console is the program's standard input and output, so every
 * function here is a NO-OP (the getters return fixed plausible values).
 * In particular setConsoleEcho(true) does not echo the input into the
 * output: a graded transcript never contains the input. C++ only.
 */

#ifndef LABGRADE_CONSOLE_H
#define LABGRADE_CONSOLE_H

#ifndef __cplusplus
#error "console.h is a C++ header (Stanford's C++ library): compile this file as C++ (.cpp)"
#else

#include <string>

inline void clearConsole() {}
inline bool getConsoleClearEnabled() { return true; }
inline void setConsoleClearEnabled(bool) {}
inline bool getConsoleEcho() { return false; }
inline void setConsoleEcho(bool) {}
inline bool getConsoleExitProgramOnClose() { return false; }
inline void setConsoleExitProgramOnClose(bool) {}
inline std::string getConsoleFont() { return "Monospaced-12"; }
inline void setConsoleFont(const std::string &) {}
inline double getConsoleHeight() { return 500; }
inline double getConsoleWidth() { return 800; }
inline void setConsoleSize(double, double) {}
inline void setConsoleLocation(double, double) {}
inline bool getConsoleLocationSaved() { return false; }
inline void setConsoleLocationSaved(bool) {}
inline bool getConsolePrintExceptions() { return false; }
inline void setConsolePrintExceptions(bool) {}
inline void setConsoleWindowTitle(const std::string &) {}
inline void setConsoleCloseOperation(int) {}
inline void setConsoleErrorColor(const std::string &) {}
inline void setConsoleOutputColor(const std::string &) {}
inline void setConsoleEventOnClose(bool) {}

#endif /* __cplusplus */

#endif /* LABGRADE_CONSOLE_H */
