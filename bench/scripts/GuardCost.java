// Issue 30 measurement, standalone (not part of the build): what the close guard (CallGuard) costs QHT's
// stream(long), measured so that a loaded machine cannot bias it. Two engines (or more instances of them) run in ONE
// JVM, each in its own URLClassLoader whose parent is the platform class loader, in the same thread, one chunk of
// calls each in turn; a pair's ratio compares two chunks run a few hundred microseconds apart, so load that comes and
// goes hits both alike, and the median over thousands of pairs ignores the chunks a preemption or a page fault hit.
// Two instances of each jar run side by side: the ratio of a jar to itself (A/A) is the method's noise floor.
//
//   mvn -q -B -ntp -pl ingest -am -DskipTests package      # the current fat jar: ingest/target/ddf.jar
//   javac -cp ingest/target/ddf.jar -d /tmp/guardcost bench/scripts/GuardCost.java
//   java $(bin/ddf jvm-flags | tr '\n' ' ') -Xms1g -Xmx2g -cp /tmp/guardcost GuardCost \
//       before=/work/ddf-83a72da.jar,after=ingest/target/ddf.jar [REPEATS] [ROUNDS_1MBIT] [ROUNDS_1GBIT] [CHUNK] [DIR]
//
// LABEL=JAR,...: each jar runs as two instances (LABEL#1, LABEL#2); every later jar is compared with every earlier
// one. bench/scripts/guard-cost.sh builds this tree and a variant of it without the guard's counting and runs them
// with the jar of 83a72da; results/hotpath/guard-cost-2026-11-29.md has the figures. DIR (default /dev/shm, tmpfs:
// no writeback faults to add noise) holds the filters' files while they run.
//
// The classpath holds only the compiled script: GuardCostDriver (compiled against the engine's public API, the same
// at 83a72da: Filters.builder(FilterKind.QHT)...singleWriter().sync(SyncPolicy.NO).file(f).create()) is loaded
// again by each engine's loader, so each instance's loop calls its own engine directly (one invokeinterface, inlined
// by C2 as in an embedder's code); the driver talks to this class through IntUnaryOperator only.
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Constructor;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.IntUnaryOperator;

/** Before/after of the close guard on QHT stream(long), owned and shared, 1 Mbit and 1 Gbit: medians of pair ratios. */
public class GuardCost {
    /** Each jar's label; instance 2j and 2j + 1 run jar j. */
    static String[] labels;
    static int engines;

    public static void main(String[] args) throws Exception {
        String[] jarArgs = args[0].split(",");
        labels = new String[jarArgs.length];
        engines = 2 * jarArgs.length;
        Path[] jars = new Path[engines];
        for (int j = 0; j < jarArgs.length; j++) {
            labels[j] = jarArgs[j].substring(0, jarArgs[j].indexOf('='));
            jars[2 * j] = jars[2 * j + 1] = Path.of(jarArgs[j].substring(jarArgs[j].indexOf('=') + 1));
        }
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int rounds1m = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
        int rounds1g = args.length > 3 ? Integer.parseInt(args[3]) : 600;
        int chunk = args.length > 4 ? Integer.parseInt(args[4]) : 4096;
        Path dir = Files.createTempDirectory(Path.of(args.length > 5 ? args[5] : "/dev/shm"), "guardcost");
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!mx.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("no thread CPU time on this JVM");
        }
        mx.setThreadCpuTimeEnabled(true);
        long[] keys = new SplittableRandom(42).longs(1 << 20).toArray();
        // the last jar first (the current build), so that its JNA (membarrier) is the first to load its native library
        ClassLoader[] loaders = new ClassLoader[engines];
        for (int e = engines - 1; e >= 0; e--) {
            loaders[e] = new URLClassLoader("engine-" + name(e), new URL[] {jars[e].toUri().toURL(),
                GuardCost.class.getProtectionDomain().getCodeSource().getLocation()}, ClassLoader.getPlatformClassLoader());
        }
        System.out.println("# GuardCost: QHT (k=4, s=16, seed 1, SyncPolicy.NO) stream(long), chunks of " + chunk
            + " calls, " + repeats + " repeats, files in " + dir);
        for (int e = 0; e < engines; e++) {
            System.out.println("- " + name(e) + ": " + jars[e] + "; " + fence(loaders[e]));
        }
        System.out.println("uptime: " + uptime());
        for (long bits : new long[] {1L << 20, 1L << 30}) {
            for (boolean owned : new boolean[] {true, false}) {
                if ((bits == 1L << 20 ? rounds1m : rounds1g) == 0) {
                    continue; // ROUNDS 0: this size not run
                }
                run(loaders, keys, dir, bits, owned, repeats, bits == 1L << 20 ? rounds1m : rounds1g, chunk, mx);
                System.out.println("uptime: " + uptime());
            }
        }
        Files.delete(dir);
    }

    /** @return instance e's name: its jar's label and #1 or #2. */
    static String name(int e) {
        return labels[e / 2] + "#" + (e % 2 + 1);
    }

    /**
     * The ratios reported, per round: {numerator instances, denominator instances} (CPU or wall time summed over
     * each side's instances). Each jar's second instance over its first (A/A: the method's floor), then each jar over
     * each earlier one, both instances a side.
     */
    static List<int[][]> ratios() {
        List<int[][]> ratios = new ArrayList<>();
        for (int j = 0; j < labels.length; j++) {
            ratios.add(new int[][] {{2 * j + 1}, {2 * j}});
        }
        for (int j = 1; j < labels.length; j++) {
            for (int i = 0; i < j; i++) {
                ratios.add(new int[][] {{2 * j, 2 * j + 1}, {2 * i, 2 * i + 1}});
            }
        }
        return ratios;
    }

    static String describe(int[][] ratio) {
        return ratio[0].length == 1 ? name(ratio[0][0]) + " / " + name(ratio[1][0]) + " (A/A)"
            : labels[ratio[0][0] / 2] + " / " + labels[ratio[1][0] / 2];
    }

    static double ratio(long[] times, int[][] ratio) {
        long num = 0;
        long den = 0;
        for (int e : ratio[0]) {
            num += times[e];
        }
        for (int e : ratio[1]) {
            den += times[e];
        }
        return (double) num / den;
    }

    /** One configuration: REPEATS times fresh files, a warm-up, then ROUNDS rounds of one chunk per instance. */
    static void run(ClassLoader[] loaders, long[] keys, Path dir, long bits, boolean owned, int repeats, int rounds,
                    int chunk, ThreadMXBean mx) throws Exception {
        String config = (owned ? "owned (single-writer)" : "shared") + ", " + (bits == 1L << 20 ? "1 Mbit" : "1 Gbit");
        List<int[][]> ratios = ratios();
        // per ratio: per repeat median (CPU), pooled CPU ratios, pooled wall ratios of undisturbed rounds
        double[][] repeatMedians = new double[ratios.size()][repeats];
        List<List<Double>> pooledCpu = new ArrayList<>();
        List<List<Double>> pooledWall = new ArrayList<>();
        for (int i = 0; i < ratios.size(); i++) {
            pooledCpu.add(new ArrayList<>());
            pooledWall.add(new ArrayList<>());
        }
        double[] nsPerOp = new double[engines];
        long[] dupTotals = new long[engines];
        int undisturbedRounds = 0;
        for (int rep = 0; rep < repeats; rep++) {
            IntUnaryOperator[] drivers = new IntUnaryOperator[engines];
            for (int e = 0; e < engines; e++) {
                Path file = dir.resolve(name(e).replace('#', '-') + "-" + bits + "-" + owned + ".ddf");
                Constructor<?> make = loaders[e].loadClass("GuardCostDriver")
                    .getConstructor(Path.class, long.class, boolean.class, long[].class, int.class);
                make.setAccessible(true); // a package-private class of another loader's copy of this file
                drivers[e] = (IntUnaryOperator) make.newInstance(file, bits, owned, keys, chunk);
            }
            // warm-up: C2 compiles each driver's loop; at 1 Gbit every page of the table is touched (1.2 M keys)
            for (int w = 0; w < 300; w++) {
                for (IntUnaryOperator d : drivers) {
                    d.applyAsInt(0);
                }
            }
            long[][] cpu = new long[rounds][engines];
            long[][] wall = new long[rounds][engines];
            for (int r = 0; r < rounds; r++) {
                // the order rotates each round and reverses every cycle: each instance takes each position alike
                for (int p = 0; p < engines; p++) {
                    int e = (r / engines % 2 == 0) ? (p + r) % engines : (engines - 1 - p + r) % engines;
                    long c0 = mx.getCurrentThreadCpuTime();
                    long w0 = System.nanoTime();
                    dupTotals[e] += drivers[e].applyAsInt(0);
                    long w1 = System.nanoTime();
                    long c1 = mx.getCurrentThreadCpuTime();
                    cpu[r][e] = c1 - c0;
                    wall[r][e] = w1 - w0;
                }
            }
            for (IntUnaryOperator d : drivers) {
                ((AutoCloseable) d).close();
            }
            for (int e = 0; e < engines; e++) {
                long[] col = new long[rounds];
                for (int r = 0; r < rounds; r++) {
                    col[r] = cpu[r][e];
                }
                nsPerOp[e] += median(col) / chunk / repeats;
            }
            for (int i = 0; i < ratios.size(); i++) {
                double[] perRound = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    perRound[r] = ratio(cpu[r], ratios.get(i));
                    pooledCpu.get(i).add(perRound[r]);
                }
                repeatMedians[i][rep] = median(perRound);
            }
            for (int r = 0; r < rounds; r++) {
                boolean undisturbed = true;
                for (int e = 0; e < engines; e++) {
                    // not descheduled: the wall time exceeds the CPU time by less than 2 us and 2 %
                    long gap = wall[r][e] - cpu[r][e];
                    undisturbed &= gap < 2_000 && gap < wall[r][e] / 50;
                }
                if (undisturbed) {
                    undisturbedRounds++;
                    for (int i = 0; i < ratios.size(); i++) {
                        pooledWall.get(i).add(ratio(wall[r], ratios.get(i)));
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%n## %s: %d repeats x %d rounds x %d calls per instance%n%n", config, repeats,
            rounds, chunk);
        System.out.printf(Locale.ROOT, "CPU ns/op (mean of repeat medians): %s%n%n", perEngine(nsPerOp, "%.2f"));
        System.out.printf(Locale.ROOT, "Duplicates judged (equal = the same work on each instance): %s%n%n",
            Arrays.toString(dupTotals));
        System.out.printf(Locale.ROOT, "Rounds not descheduled (wall within 2 us and 2 %% of CPU on every chunk): %d of"
            + " %d%n%n", undisturbedRounds, rounds * repeats);
        System.out.println("| ratio | CPU: median of repeat medians [min, max] | CPU: pooled median [95 % bootstrap]"
            + " | wall, undisturbed rounds: pooled median [95 % bootstrap] |");
        System.out.println("| --- | --- | --- | --- |");
        for (int i = 0; i < ratios.size(); i++) {
            double[] reps = repeatMedians[i].clone();
            Arrays.sort(reps);
            double[] pc = pooledCpu.get(i).stream().mapToDouble(Double::doubleValue).toArray();
            double[] pw = pooledWall.get(i).stream().mapToDouble(Double::doubleValue).toArray();
            System.out.printf(Locale.ROOT, "| %s | %.4f [%.4f, %.4f] | %s | %s |%n", describe(ratios.get(i)),
                median(reps), reps[0], reps[reps.length - 1], boot(pc), boot(pw));
        }
    }

    static String perEngine(double[] v, String format) {
        StringBuilder s = new StringBuilder();
        for (int e = 0; e < v.length; e++) {
            s.append(e == 0 ? "" : ", ").append(name(e)).append(' ').append(String.format(Locale.ROOT, format, v[e]));
        }
        return s.toString();
    }

    /** The median and a 95 % percentile-bootstrap interval of it (1,000 resamples, fixed seed). */
    static String boot(double[] values) {
        if (values.length < 20) {
            return "n=" + values.length + " (too few)";
        }
        SplittableRandom random = new SplittableRandom(7);
        double[] medians = new double[1000];
        double[] sample = new double[values.length];
        for (int b = 0; b < medians.length; b++) {
            for (int i = 0; i < sample.length; i++) {
                sample[i] = values[random.nextInt(values.length)];
            }
            medians[b] = median(sample);
        }
        Arrays.sort(medians);
        return String.format(Locale.ROOT, "%.4f [%.4f, %.4f] (n=%d)", median(values.clone()), medians[25],
            medians[974], values.length);
    }

    static double median(double[] values) {
        Arrays.sort(values);
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    static double median(long[] values) {
        return median(Arrays.stream(values).asDoubleStream().toArray());
    }

    /** Whether the engine's close guard pays no fence (membarrier registered), where the engine has one. */
    static String fence(ClassLoader loader) {
        for (String name : new String[] {"io.ddf.persistence.platform.AsymmetricFence", "io.ddf.persistence.AsymmetricFence"}) {
            try {
                return name + ".lightIsFree() = " + loader.loadClass(name).getMethod("lightIsFree").invoke(null);
            } catch (ClassNotFoundException absent) {
                // try the next name
            } catch (ReflectiveOperationException e) {
                return name + ": " + e;
            }
        }
        return "no AsymmetricFence (no close guard)";
    }

    static String uptime() {
        try {
            Process p = new ProcessBuilder("uptime").redirectErrorStream(true).start();
            return new String(p.getInputStream().readAllBytes()).trim();
        } catch (java.io.IOException e) {
            return "uptime: " + e;
        }
    }
}

/**
 * One engine's instance, loaded by that engine's class loader: its QHT filter and a cursor over the shared keys (each
 * instance sees the same keys in the same order: a pass over the pool XORs them with the next salt).
 */
class GuardCostDriver implements IntUnaryOperator, AutoCloseable {
    private final io.ddf.engine.DuplicateFilter filter;
    private final long[] keys;
    private final int chunk;
    private final Path file;
    private int cursor;
    private long salt;

    public GuardCostDriver(Path file, long bits, boolean owned, long[] keys, int chunk) throws java.io.IOException {
        Files.deleteIfExists(file);
        io.ddf.engine.FilterBuilder builder = io.ddf.engine.Filters.builder(io.ddf.engine.FilterKind.QHT)
            .memoryBits(bits).buckets(4).fingerprintBits(16).seed(1).sync(io.ddf.engine.SyncPolicy.NO).file(file);
        this.filter = (owned ? builder.singleWriter() : builder).create();
        this.keys = keys;
        this.chunk = chunk;
        this.file = file;
    }

    /** @return how many of the chunk's calls answered DUPLICATE. */
    @Override
    public int applyAsInt(int unused) {
        int duplicates = 0;
        int at = cursor;
        long s = salt;
        for (int i = 0; i < chunk; i++) {
            if (filter.stream(keys[at] ^ s) == io.ddf.engine.Verdict.DUPLICATE) {
                duplicates++;
            }
            if (++at == keys.length) {
                at = 0;
                s += 0x9E3779B97F4A7C15L;
            }
        }
        cursor = at;
        salt = s;
        return duplicates;
    }

    @Override
    public void close() throws java.io.IOException {
        filter.close();
        Files.deleteIfExists(file);
    }
}
