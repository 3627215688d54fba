/* labgrade's world for CS61B Lecture #34's findBestMove / guessBestMove (seed 004): the two
 * players of tic-tac-toe. Students compile against this file; they do not hand it in. */

/** A player of tic-tac-toe: X moves first. */
public enum Player {
    X, O;

    /** The other player. */
    public Player opponent() {
        return this == X ? O : X;
    }

    /** 'X' or 'O'. */
    public char mark() {
        return this == X ? 'X' : 'O';
    }
}
