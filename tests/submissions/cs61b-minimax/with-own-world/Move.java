/* labgrade's world for CS61B Lecture #34's findBestMove / guessBestMove (seed 004): a move of
 * tic-tac-toe and its value. Students compile against this file; they do not hand it in. */

/** A move: a square (0 to 8, row by row) for one player, and a value for that player. */
public class Move {
    /** The value of a won game (a lost one is -WIN). */
    public static final double WIN = 1000.0;

    /** What findBestMove returns where the game is over (the lecture's won and lost
     *  positions). Its value is -WIN: the search meets a finished game only where the
     *  opponent has just completed a line, a loss for the player to move. It cannot be
     *  changed (setValue throws). */
    public static final Move CANT_MOVE = new Move(-1, null, -WIN, true);

    /** A move worse than any: value -infinity, so the first legal move always improves on
     *  it, and -REALLY_BAD_MOVE.value() is +infinity, a cutoff that prunes nothing. It
     *  cannot be changed (setValue throws). */
    public static final Move REALLY_BAD_MOVE =
        new Move(-2, null, Double.NEGATIVE_INFINITY, true);

    private final int square;
    private final Player player;
    private double value;
    private final boolean constant;

    Move(int square, Player player, double value, boolean constant) {
        this.square = square;
        this.player = player;
        this.value = value;
        this.constant = constant;
    }

    /** The square, 0 to 8 row by row (negative for CANT_MOVE and REALLY_BAD_MOVE). */
    public int square() {
        return square;
    }

    /** The player who makes this move (null for the two constants). */
    public Player player() {
        return player;
    }

    /** This move's value for its player, as last set (0 for a fresh legal move). */
    public double value() {
        return value;
    }

    /** Sets this move's value ("Set M's value to ..."). */
    public void setValue(double value) {
        if (constant) {
            throw new UnsupportedOperationException(
                "setValue on " + this + ": the constants CANT_MOVE and REALLY_BAD_MOVE never change");
        }
        this.value = value;
    }

    @Override
    public String toString() {
        if (this == CANT_MOVE) {
            return "CANT_MOVE";
        }
        if (this == REALLY_BAD_MOVE) {
            return "REALLY_BAD_MOVE";
        }
        return player + "@" + square + " (value " + value + ")";
    }
}
