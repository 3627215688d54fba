/** The static guess written inside findBestMove: no guessBestMove at all. */
public class Search {
    static Move findBestMove(Player who, Position start, int depth, double cutoff) {
        if (start.isWon(who)) {
            return Move.CANT_MOVE;
        } else if (start.isLost(who)) {
            return Move.CANT_MOVE;
        }
        Move bestSoFar = Move.REALLY_BAD_MOVE;
        for (Move m : start.legalMoves(who)) {
            Position next = start.makeMove(m);
            double value;
            if (depth == 0) {
                value = next.guess(who);
            } else {
                value = -findBestMove(who.opponent(), next, depth - 1, -bestSoFar.value()).value();
            }
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
}
