import java.util.List;

/* Attack: read files from Java. The first findBestMove of a run reads a file the sandbox
   may read, /usr/lib/os-release, and lists /tmp (where other users' files are), through
   java.nio, then searches as the lecture does; it answers wrong if /tmp could be listed.
   Harmless without a sandbox: it only reads.
   What stops it: Landlock (only the system directories, the JDK and the run's own
   directory are readable; /tmp is not). What must not happen: the readable file's read ended the run
   as `forbidden` (the JVM makes a socketpair the first time java.nio opens a file, which
   the sandbox trapped), a verdict the student's answer did not earn. */
class Minimax {
    private static boolean tried = false;
    private static boolean reached = false;

    private static boolean attack() {
        try {
            byte[] b = java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("/usr/lib/os-release"));
            System.out.println("read " + b.length + " bytes of os-release");
        } catch (java.io.IOException | SecurityException e) {
            System.out.println("os-release: " + e);
        }
        try (java.util.stream.Stream<java.nio.file.Path> listing =
                java.nio.file.Files.list(java.nio.file.Paths.get("/tmp"))) {
            System.out.println("/tmp holds " + listing.count() + " entries");
            return true;
        } catch (java.io.IOException | SecurityException e) {
            return false;
        }
    }


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
        if (!tried) {
            tried = true;
            reached = attack();
        }
        if (reached) {
            return Move.CANT_MOVE; // a wrong answer: the attack worked
        }
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
