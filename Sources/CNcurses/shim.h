// ncurses with wide characters for the terminal editor (`outline edit FILE`).
// Only Sources/OutlineTerminal imports this module. Macros and globals that Swift cannot
// import (stdscr, LINES, COLS, attribute bits, COLOR_PAIR) are wrapped once here.
#ifndef OUTLINE_CNCURSES_SHIM_H
#define OUTLINE_CNCURSES_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

static inline WINDOW *outline_curses_screen(void) { return stdscr; }
static inline int outline_curses_lines(void) { return LINES; }
static inline int outline_curses_columns(void) { return COLS; }

static inline attr_t outline_curses_bold(void) { return A_BOLD; }
static inline attr_t outline_curses_dim(void) { return A_DIM; }
static inline attr_t outline_curses_reverse(void) { return A_REVERSE; }
static inline attr_t outline_curses_underline(void) { return A_UNDERLINE; }
static inline attr_t outline_curses_normal(void) { return A_NORMAL; }
static inline attr_t outline_curses_color_pair(short pair) { return (attr_t)COLOR_PAIR(pair); }

/// Sets the attributes of the standard screen (attr_set is a macro).
static inline int outline_curses_set_attributes(attr_t attributes) {
    return wattr_set(stdscr, attributes, 0, NULL);
}

/// Writes `count` wide characters at (row, column) of the standard screen.
static inline int outline_curses_write(int row, int column, const wchar_t *text, int count) {
    return mvwaddnwstr(stdscr, row, column, text, count);
}

/// Reads one key: OK with a character, KEY_CODE_YES with a function key, ERR on timeout.
static inline int outline_curses_read(wint_t *key) { return wget_wch(stdscr, key); }

static inline int outline_curses_clear_to_end_of_line(int row, int column) {
    return wmove(stdscr, row, column) == ERR ? ERR : wclrtoeol(stdscr);
}

#endif
