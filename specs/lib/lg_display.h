/*
 * Display calls that courses' own libraries declare and labgrade's stand-ins for them do
 * not define: a maze drawn (PrintMaze), a pause between the steps of an animation
 * (SetPauseTime). A student's driver calls them as the course's headers let it; declared
 * here, the same code compiles against labgrade's headers with no warning (C) and no error
 * (C++). When nothing defines them, labgrade links stand-ins that do nothing and says so in
 * the build notes; a student's own definition is used as written.
 *
 * In C they are declared without a prototype (before C23), so that a student's definition
 * with other parameters (SetPauseTime(int milliseconds)) still compiles.
 */
#ifndef LG_DISPLAY_H
#define LG_DISPLAY_H

#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 202311L)
void SetPauseTime(double seconds);
void PrintMaze(void);
#else
void SetPauseTime();
void PrintMaze();
#endif

#endif /* LG_DISPLAY_H */
