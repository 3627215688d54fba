/** No base case: findBestMove calls itself on the same position, depth going negative. */
public class Search {
    static Move findBestMove(Player who, Position start, int depth, double cutoff) {
        Move bestSoFar = Move.REALLY_BAD_MOVE;
        Move response = findBestMove(who.opponent(), start, depth - 1, -bestSoFar.value());
        if (-response.value() > bestSoFar.value()) {
            bestSoFar = response;
        }
        return bestSoFar;
    }

    static Move guessBestMove(Player who, Position start, double cutoff) {
        return findBestMove(who, start, 0, cutoff);
    }
}
