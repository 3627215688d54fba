import java.util.List;

/* Attack: load a native library of the student's own. The first findBestMove of a run
   copies a library of the JDK (libzip.so) into its run directory and System.load()s the
   copy, as a student would load compiled C code smuggled in a resource; it answers wrong
   if the load worked. Harmless without a sandbox: the JDK's own library, loaded again.
   What stops it: the JVM's run directory is read-only (Landlock), so nothing can be
   written to load (loading maps a file, which no Landlock right covers; memfd_create is a
   forbidden call). */
class Minimax {
    private static boolean tried = false;
    private static boolean reached = false;

    private static boolean attack() {
        java.nio.file.Path from = java.nio.file.Paths.get(System.getProperty("java.home"), "lib", "libzip.so");
        java.nio.file.Path copy = java.nio.file.Paths.get("lg-own.so").toAbsolutePath();
        try {
            java.nio.file.Files.copy(from, copy);
        } catch (java.io.IOException | SecurityException e) {
            System.out.println("no copy: " + e);
            return false;
        }
        try {
            System.load(copy.toString());
            return true;
        } catch (UnsatisfiedLinkError | SecurityException e) {
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
