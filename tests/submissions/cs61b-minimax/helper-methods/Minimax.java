import java.util.List;

/** The lecture's search with helpers, an index loop and debug printing (shown, not graded). */
class Minimax {
    private static boolean gameOver(Player who, Position p) {
        return p.isWon(who) || p.isLost(who);
    }

    /** True when M, valued V, improves on BEST. */
    private static boolean improves(double v, Move best) {
        return v > best.value();
    }

    private static boolean reaches(Move m, double cutoff) {
        return m.value() >= cutoff;
    }

    static Move findBestMove(Player who, Position start, int depth, double cutoff) {
        if (gameOver(who, start)) {
            return Move.CANT_MOVE;
        } else if (depth == 0) {
            return guessBestMove(who, start, cutoff);
        }
        Move best = Move.REALLY_BAD_MOVE;
        List<Move> moves = start.legalMoves(who);
        for (int i = 0; i < moves.size(); i++) {
            Move m = moves.get(i);
            Move reply = findBestMove(who.opponent(), start.makeMove(m), depth - 1, -best.value());
            if (improves(-reply.value(), best)) {
                m.setValue(-reply.value());
                best = m;
                if (reaches(m, cutoff)) {
                    break;
                }
            }
        }
        if (depth >= 6) {
            System.out.println("depth " + depth + ": " + best);
        }
        return best;
    }

    static Move guessBestMove(Player who, Position start, double cutoff) {
        Move best = Move.REALLY_BAD_MOVE;
        List<Move> moves = start.legalMoves(who);
        for (int i = 0; i < moves.size(); i++) {
            Move m = moves.get(i);
            Position next = start.makeMove(m);
            m.setValue(next.guess(who));
            if (improves(m.value(), best)) {
                best = m;
                if (reaches(m, cutoff)) {
                    break;
                }
            }
        }
        return best;
    }
}
