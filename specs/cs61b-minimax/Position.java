/* labgrade's world for CS61B Lecture #34's findBestMove / guessBestMove (seed 004): a
 * tic-tac-toe position. Students compile against Player.java, Move.java and this file, and
 * hand in ONE class of their own (any name, the default package) declaring
 *
 *     static Move findBestMove(Player who, Position start, int depth, double cutoff)
 *     static Move guessBestMove(Player who, Position start, double cutoff)
 *
 * as the lecture writes them, with these words for its pseudocode:
 *
 *     start is a won position for who          start.isWon(who)
 *     start is a lost position for who         start.isLost(who)
 *     CANT_MOVE, REALLY_BAD_MOVE               Move.CANT_MOVE, Move.REALLY_BAD_MOVE
 *     each legal move, M, for who from start   for (Move m : start.legalMoves(who))
 *     start.makeMove(M)                        start.makeMove(m)
 *     who.opponent(), M.value()                who.opponent(), m.value()
 *     Set M's value to v                       m.setValue(v)
 *     heuristic guess of value to who of next  next.guess(who)
 *
 * labgrade counts every makeMove: the positions examined. The searches it asks for never
 * reach a full board (depth is at most the number of empty squares minus one: the last ply
 * is guessBestMove's, whose guess already scores a completed line), so that depth is the
 * exact value of the game: WIN, 0 (a draw) or -WIN.
 */

import java.util.ArrayList;
import java.util.List;

/** A tic-tac-toe position: nine squares, 0 to 8 row by row. */
public final class Position {
    private static final int[][] LINES = {
        {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6},
    };

    private static long examined;

    private final char[] squares;

    /** The position of nine characters: 'X', 'O' and '.' (empty), row by row. */
    public Position(String nine) {
        if (nine.length() != 9) {
            throw new IllegalArgumentException("a position has nine squares: " + nine);
        }
        squares = new char[9];
        for (int i = 0; i < 9; i += 1) {
            char c = nine.charAt(i);
            if (c != 'X' && c != 'O' && c != '.') {
                throw new IllegalArgumentException("a square is X, O or .: " + nine);
            }
            squares[i] = c;
        }
    }

    private Position(char[] squares) {
        this.squares = squares;
    }

    /** What is on square SQ: 'X', 'O' or '.'. */
    public char get(int sq) {
        return squares[sq];
    }

    /** True when WHO has three in a row. */
    private boolean hasLine(Player who) {
        for (int[] line : LINES) {
            if (squares[line[0]] == who.mark() && squares[line[1]] == who.mark()
                && squares[line[2]] == who.mark()) {
                return true;
            }
        }
        return false;
    }

    /** The lecture's "won position for WHO": WHO has three in a row. */
    public boolean isWon(Player who) {
        return hasLine(who);
    }

    /** The lecture's "lost position for WHO": WHO's opponent has three in a row. */
    public boolean isLost(Player who) {
        return hasLine(who.opponent());
    }

    /** The legal moves for WHO: the empty squares in increasing order, each a new Move
     *  of value 0. */
    public List<Move> legalMoves(Player who) {
        List<Move> moves = new ArrayList<>();
        for (int i = 0; i < 9; i += 1) {
            if (squares[i] == '.') {
                moves.add(new Move(i, who, 0.0, false));
            }
        }
        return moves;
    }

    /** The position after MOVE (a legal move of this position): one position examined. */
    public Position makeMove(Move move) {
        examined += 1;
        if (move.player() == null || move.square() < 0 || move.square() > 8
            || squares[move.square()] != '.') {
            throw new IllegalArgumentException("makeMove(" + move + ") on " + this
                                               + ": not a legal move here");
        }
        char[] next = squares.clone();
        next[move.square()] = move.player().mark();
        return new Position(next);
    }

    /** The heuristic guess of the value of this position to WHO: WIN if WHO has a line,
     *  -WIN if the opponent has, else the lines still open to WHO (no opponent mark in
     *  them) minus the lines still open to the opponent. */
    public double guess(Player who) {
        if (hasLine(who)) {
            return Move.WIN;
        }
        if (hasLine(who.opponent())) {
            return -Move.WIN;
        }
        return open(who) - open(who.opponent());
    }

    private int open(Player who) {
        int n = 0;
        for (int[] line : LINES) {
            char them = who.opponent().mark();
            if (squares[line[0]] != them && squares[line[1]] != them && squares[line[2]] != them) {
                n += 1;
            }
        }
        return n;
    }

    /** labgrade's: the makeMove calls since the last reset. */
    static long examined() {
        return examined;
    }

    /** labgrade's: starts counting again. */
    static void resetExamined() {
        examined = 0;
    }

    @Override
    public String toString() {
        return new String(squares);
    }
}
