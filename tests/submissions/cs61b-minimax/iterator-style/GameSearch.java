import java.util.Iterator;

/** Lecture #34's search, with an explicit iterator and the won/lost tests in one. */
public class GameSearch {
    public static Move findBestMove(Player who, Position start, int depth, double cutoff) {
        if (start.isWon(who) || start.isLost(who)) {
            return Move.CANT_MOVE;
        }
        if (depth == 0) {
            return guessBestMove(who, start, cutoff);
        }
        Move bestSoFar = Move.REALLY_BAD_MOVE;
        Iterator<Move> moves = start.legalMoves(who).iterator();
        while (moves.hasNext()) {
            Move m = moves.next();
            Position next = start.makeMove(m);
            Move response = findBestMove(who.opponent(), next, depth - 1, -bestSoFar.value());
            double value = -response.value();
            if (value > bestSoFar.value()) {
                m.setValue(value);
                bestSoFar = m;
                if (m.value() >= cutoff) {
                    break;
                }
            }
        }
        return bestSoFar;
    }

    public static Move guessBestMove(Player who, Position start, double cutoff) {
        Move bestSoFar = Move.REALLY_BAD_MOVE;
        Iterator<Move> moves = start.legalMoves(who).iterator();
        while (moves.hasNext()) {
            Move m = moves.next();
            m.setValue(start.makeMove(m).guess(who));
            if (m.value() > bestSoFar.value()) {
                bestSoFar = m;
                if (m.value() >= cutoff) {
                    break;
                }
            }
        }
        return bestSoFar;
    }
}
