/* labgrade's harness for cs61b-minimax: runs in the sandboxed JVM, never in labgrade.
 *
 * It reads one case from standard input (labgrade writes it; the expected answers are never
 * part of it):
 *
 *     findBestMove | guessBestMove
 *     X | O                        (who)
 *     nine squares                 (start)
 *     depth cutoff                 (one line per search; depth is ignored by guessBestMove)
 *
 * finds the class of the submission declaring the method (any name: every class in the
 * submission's jar is looked at, without running its code), runs the searches one after
 * the other on a thread of its own, and writes one record line on the real standard output:
 *
 *     labgrade-record {"results":[{"move":2,"player":"X","value":"1000.0","examined":13},...]}
 *     labgrade-record {"error":"exception","class":"...","message":"..."}
 *     labgrade-record {"error":"stack-overflow"}         (or "memory-limit": the heap is full)
 *     labgrade-record {"error":"missing","name":"guessBestMove","found":"..."}
 *
 * What the student's code prints with System.out goes to standard error, shown, never graded.
 */

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

final class LabgradeHarness {
    private static final String[] WORLD = {"Player", "Move", "Position", "LabgradeHarness"};

    private LabgradeHarness() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream record = new PrintStream(new FileOutputStream(FileDescriptor.out), true,
                                             "UTF-8");
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, "UTF-8"));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
                                                                     StandardCharsets.UTF_8));
        String function = in.readLine().trim();
        Player who = Player.valueOf(in.readLine().trim());
        Position start = new Position(in.readLine().trim());
        List<int[]> depths = new ArrayList<>();
        List<Double> cutoffs = new ArrayList<>();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] parts = line.trim().split(" ");
            if (parts.length != 2) {
                continue;
            }
            depths.add(new int[] {Integer.parseInt(parts[0])});
            cutoffs.add(Double.parseDouble(parts[1]));
        }
        String stackMb = System.getProperty("labgrade.stack.mb", "8");
        long stack = Long.parseLong(stackMb) << 20;

        Method method;
        try {
            method = find(function);
        } catch (Missing m) {
            record.println("labgrade-record {\"error\":\"missing\",\"name\":" + quote(m.name)
                           + ",\"found\":" + quote(m.found) + "}");
            return;
        }
        StringBuilder results = new StringBuilder();
        Throwable[] thrown = new Throwable[1];
        Runnable searches = () -> {
            try {
                for (int i = 0; i < cutoffs.size(); i += 1) {
                    Position.resetExamined();
                    Object got = function.equals("findBestMove")
                        ? method.invoke(null, who, start, depths.get(i)[0], cutoffs.get(i))
                        : method.invoke(null, who, start, cutoffs.get(i));
                    long examined = Position.examined();
                    if (i > 0) {
                        results.append(',');
                    }
                    results.append(describe((Move) got, examined));
                }
            } catch (InvocationTargetException e) {
                thrown[0] = e.getCause();
            } catch (Throwable e) {
                thrown[0] = e;
            }
        };
        Thread student = new Thread(null, searches, "student", stack);
        student.start();
        student.join();
        Throwable t = thrown[0];
        if (t instanceof ExceptionInInitializerError && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof StackOverflowError) {
            record.println("labgrade-record {\"error\":\"stack-overflow\"}");
        } else if (t instanceof OutOfMemoryError) {
            record.println("labgrade-record {\"error\":\"memory-limit\"}");
        } else if (t != null) {
            printStudentTrace(t);
            record.println("labgrade-record {\"error\":\"exception\",\"class\":"
                           + quote(t.getClass().getName()) + ",\"message\":"
                           + quote(String.valueOf(t.getMessage())) + "}");
        } else {
            record.println("labgrade-record {\"results\":[" + results + "]}");
        }
        record.flush();
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    /** The exception and the top of the student's frames (labgrade's own, where the
     *  harness called the student's method, are left out), on standard error. */
    private static void printStudentTrace(Throwable t) {
        System.err.println(t);
        int shown = 0;
        for (StackTraceElement e : t.getStackTrace()) {
            String c = e.getClassName();
            if (c.startsWith("jdk.internal.reflect.") || c.startsWith("java.lang.reflect.")
                || c.startsWith("LabgradeHarness")) {
                break;
            }
            if (shown == 4) {
                System.err.println("\t...");
                break;
            }
            System.err.println("\tat " + e);
            shown += 1;
        }
        System.err.flush();
    }

    /** One search's answer: the move's square (or which constant), its player, its value
     *  (as Java writes a double: "Infinity" and "NaN" included) and the positions examined. */
    private static String describe(Move m, long examined) {
        String move;
        String player = "null";
        String value = "null";
        if (m == null) {
            move = "\"null\"";
        } else {
            if (m == Move.CANT_MOVE) {
                move = "\"CANT_MOVE\"";
            } else if (m == Move.REALLY_BAD_MOVE) {
                move = "\"REALLY_BAD_MOVE\"";
            } else {
                move = Integer.toString(m.square());
            }
            if (m.player() != null) {
                player = quote(m.player().name());
            }
            value = quote(Double.toString(m.value()));
        }
        return "{\"move\":" + move + ",\"player\":" + player + ",\"value\":" + value
            + ",\"examined\":" + examined + "}";
    }

    private static final class Missing extends Exception {
        final String name;
        final String found;

        Missing(String name, String found) {
            super(name);
            this.name = name;
            this.found = found;
        }
    }

    /** The submission's classes: every class file of the jar this harness runs from that is
     *  not one of labgrade's (nor nested in one). */
    private static List<String> submissionClasses() throws Exception {
        TreeSet<String> names = new TreeSet<>();
        String path = System.getProperty("java.class.path");
        try (ZipFile jar = new ZipFile(path)) {
            Enumeration<? extends ZipEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                String n = entries.nextElement().getName();
                if (!n.endsWith(".class")) {
                    continue;
                }
                String cls = n.substring(0, n.length() - ".class".length()).replace('/', '.');
                String outer = cls.contains("$") ? cls.substring(0, cls.indexOf('$')) : cls;
                boolean world = false;
                for (String w : WORLD) {
                    world |= outer.equals(w);
                }
                if (!world) {
                    names.add(cls);
                }
            }
        }
        return new ArrayList<>(names);
    }

    /** The static method FUNCTION of the submission, with the lecture's parameters. */
    private static Method find(String function) throws Exception {
        Class<?>[] wanted = function.equals("findBestMove")
            ? new Class<?>[] {Player.class, Position.class, int.class, double.class}
            : new Class<?>[] {Player.class, Position.class, double.class};
        List<String> near = new ArrayList<>();
        ClassLoader loader = LabgradeHarness.class.getClassLoader();
        List<Method> exact = new ArrayList<>();
        for (String name : submissionClasses()) {
            Class<?> c;
            try {
                c = Class.forName(name, false, loader);
            } catch (LinkageError e) {
                continue;
            }
            Method[] methods;
            try {
                methods = c.getDeclaredMethods();
            } catch (LinkageError e) {
                continue;
            }
            for (Method m : methods) {
                if (!m.getName().equals(function)) {
                    continue;
                }
                boolean sameParams = java.util.Arrays.equals(m.getParameterTypes(), wanted);
                if (sameParams && Modifier.isStatic(m.getModifiers())
                    && m.getReturnType() == Move.class) {
                    exact.add(m);
                } else {
                    near.add(show(m) + " in class " + c.getName());
                }
            }
        }
        if (exact.isEmpty()) {
            throw new Missing(function, String.join("; ", near));
        }
        // Several classes declaring it: the first by name.
        Method chosen = exact.get(0);
        chosen.setAccessible(true);
        return chosen;
    }

    private static String show(Method m) {
        StringBuilder s = new StringBuilder();
        if (Modifier.isStatic(m.getModifiers())) {
            s.append("static ");
        }
        s.append(m.getReturnType().getSimpleName()).append(' ').append(m.getName()).append('(');
        Class<?>[] ps = m.getParameterTypes();
        for (int i = 0; i < ps.length; i += 1) {
            if (i > 0) {
                s.append(", ");
            }
            s.append(ps[i].getSimpleName());
        }
        return s.append(')').toString();
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
