/*
 * File: game_side.h
 * -----------------
 * Roberts' game side (Programming Abstractions in C++, section 7.5, Figure 7-6 and
 * exercises 10 to 12): how labgrade grades the game part you write.
 *
 * YOU WRITE the whole program, as the exercise asks: the book's main,
 * FindBestMove and EvaluatePosition (unchanged from Figure 7-6), and your own
 * game part: stateT, moveT, NewGame, GenerateMoveList, MoveIsLegal, MakeMove,
 * RetractMove, GameIsOver, WhoseTurn, Opponent, EvaluateStaticPosition, and the
 * display and input functions. Your types and constants are yours (another
 * WINNING_POSITION, a Vector<int> of rows, a struct or an int for a move): hand
 * in your files as they are. You need not include this file.
 *
 * HOW LABGRADE REACHES YOUR POSITIONS: only through your own functions. It
 * calls NewGame(), then makes the moves your GenerateMoveList lists with your
 * MakeMove; every position it looks at is one your game leads to. It reads a
 * listed move as integers (moveT an int or enum; a struct of up to four ints;
 * a std::pair) and matches it, once, at the start, with the game's moves:
 *   nim (exercises 10, 11)  the number of coins taken;
 *   three rows (ex. 12)     a row (counted from 0 or 1) and the coins taken,
 *                           in either order;
 *   tic-tac-toe             the square (1 to 9, or 0 to 8), or (row, column).
 * A position is then what that line of moves leads to; who moved first is
 * your choice (FIRST_PLAYER): labgrade only asks that the turn changes hands.
 *
 * WHAT IS GRADED, in every position your game reaches:
 *   - GenerateMoveList lists exactly the legal moves (in any order);
 *   - GameIsOver says when the game is over, WhoseTurn changes with each move,
 *     and EvaluateStaticPosition rates a finished game from the side of the
 *     player to move (positive: won, negative: lost, 0: drawn). Ending the game
 *     one move early where that move is forced (nim with one coin left) is
 *     accepted when the rating says who won;
 *   - MakeMove then RetractMove gives back exactly the state (its bytes when
 *     stateT is plain data; otherwise everything your functions answer);
 *   - the book's FindBestMove, run over your game, chooses a best move and
 *     rates the position right (any of several equally good moves counts);
 *   - and so does your program's own FindBestMove(state, 0, rating) (lg_own_search),
 *     the general part as you kept it;
 *   - your program itself plays a whole game through its console (exercises 10 and
 *     11: the human takes one coin at a time; tic-tac-toe: the human offers squares
 *     1 to 9 in turn) and exits with status 0; its words are yours, not graded.
 */
