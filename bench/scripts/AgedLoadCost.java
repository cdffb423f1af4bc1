// Issue 29, standalone (not part of the build): what an aged-cuckoo stream() costs against the table's load, beside
// the count-turned fifo-bloom of the same capacity and error rate. Each variant is a filter of CAPACITY new elements
// per window of 60 s (event time), streamed at the promised rate (the window's time advances CAPACITY elements a
// window: the steady state the sizing is for) with random 64-bit elements, owned mode (single writer), no file.
// Variants: fifo-bloom (KIND fifo-bloom, its own sizing) and aged-cuckoo at loads (its memory-bits set so that the
// n(1 + 1/L) live entries fill that fraction of the slots). Each variant first streams WARM x CAPACITY elements
// (the table reaches its steady load), then ROUNDS slices of CAPACITY elements, alternated between the variants; the
// medians of the thread's CPU ns per element over the slices.
//   javac -cp ingest/target/ddf.jar -d /tmp/alc bench/scripts/AgedLoadCost.java
//   java $(bin/ddf jvm-flags) -cp ingest/target/ddf.jar:/tmp/alc AgedLoadCost [CAPACITY=10000000] [ROUNDS=5]
//        [LOADS=0.95,0.90,0.85] [WARM=3] [RATE=1] [SLICES=16] [BATCH=0]
// RATE: new elements per window in capacities (2: twice the promised rate, past the promise; the time advances a
// window every RATE x CAPACITY elements). SLICES: aged-cuckoo's L; at 1 % the eight-slot buckets (bucket-words 2, the
// default since 2026-11-30) allow at most 14, and 16 keeps the four-slot layout of the builds before. The table's
// words are rounded up to an even number (whole eight-slot buckets). BATCH (0: one call an element): groups of that
// many elements hashed, touched (touchHash) and then streamed by hash, as the daemon's packed path judges a BF.MADD
// (FusedHandler.judgeHashes). -Dprobe.shared=true: both filters in shared mode, as the daemon opens them.
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

public class AgedLoadCost {
    static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    static final long WINDOW_MS = 60_000;
    static int slices = 16;
    static double rate = 1.0;
    static int batch;
    static long sink;
    /** -Dprobe.shared: the filters in shared mode (compare-and-swap, as the daemon's), else single writer. */
    static final boolean SHARED = Boolean.getBoolean("probe.shared");

    public static void main(final String[] args) throws Exception {
        final long capacity = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        final String[] loads = (args.length > 2 ? args[2] : "0.95,0.90,0.85").split(",");
        final int warm = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        rate = args.length > 4 ? Double.parseDouble(args[4]) : 1.0;
        slices = args.length > 5 ? Integer.parseInt(args[5]) : 16;
        batch = args.length > 6 ? Integer.parseInt(args[6]) : 0;
        final Map<String, DuplicateFilter> filters = new LinkedHashMap<>();
        final java.util.function.UnaryOperator<io.ddf.engine.FilterBuilder> mode = b -> SHARED ? b : b.singleWriter();
        filters.put("fifo-bloom (count)", mode.apply(Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", capacity)
            .param("target-fpr", 0.01)).create());
        final long live = capacity + (capacity + slices - 1) / slices;
        for (final String load : loads) {
            final long buckets = ((long)Math.ceil(live / (4 * Double.parseDouble(load))) + 1) / 2 * 2; // table words
            filters.put("aged-cuckoo load " + load, mode.apply(Filters.builder(FilterKind.AGED_CUCKOO)
                .param("capacity", capacity)
                .param("target-fpr", 0.01).param("slices", slices).param("time-source", 1)
                .param("window-ms", WINDOW_MS).param("memory-bits", (buckets + 96) * 64)).create());
        }
        final Map<String, long[]> clocks = new LinkedHashMap<>();
        final Map<String, List<Double>> cost = new LinkedHashMap<>();
        final SplittableRandom random = new SplittableRandom(29);
        for (final Map.Entry<String, DuplicateFilter> e : filters.entrySet()) {
            clocks.put(e.getKey(), new long[] {1_700_000_000_000L, 0});
            cost.put(e.getKey(), new ArrayList<>());
            for (int w = 0; w < warm; w++) {
                slice(e.getValue(), clocks.get(e.getKey()), capacity, random);
            }
            System.out.println("warm: " + e.getKey() + " " + e.getValue().parameters().toMap().get("bits-per-item") +
                " bits an item, " + e.getValue().parameters().toMap().getOrDefault("slots-per-bucket", "4") +
                " slots a bucket");
        }
        for (int r = 0; r < rounds; r++) {
            for (final Map.Entry<String, DuplicateFilter> e : filters.entrySet()) {
                final long t0 = CPU.getCurrentThreadCpuTime();
                final long dups = slice(e.getValue(), clocks.get(e.getKey()), capacity, random);
                final double ns = (CPU.getCurrentThreadCpuTime() - t0) / (double)capacity;
                cost.get(e.getKey()).add(ns);
                System.out.printf("round %d %-24s %.1f ns/element (%d answered DUPLICATE)%n", r + 1, e.getKey(), ns,
                    dups);
            }
        }
        for (final Map.Entry<String, List<Double>> e : cost.entrySet()) {
            final double[] v = e.getValue().stream().mapToDouble(Double::doubleValue).sorted().toArray();
            System.out.printf("median %-24s %.1f ns/element  %s bits an item, table %d bytes%n", e.getKey(),
                v[v.length / 2], filters.get(e.getKey()).parameters().toMap().getOrDefault("bits-per-item", "-"),
                filters.get(e.getKey()).parameters().tableBytes());
        }
        for (final DuplicateFilter f : filters.values()) {
            f.close();
        }
        if (sink == 0x7DDF) {
            System.out.println(sink); // keeps the touches' reads
        }
    }

    /** One window's worth of new elements, the event time advancing evenly over the window. */
    static long slice(final DuplicateFilter filter, final long[] clock, final long n, final SplittableRandom random) {
        final long step = Math.max(1, (long)(WINDOW_MS * 1000 / (n * rate))); // µs per element, kept in clock[1]
        long dups = 0;
        if (batch > 0) {
            final boolean timed = filter.timeWindow().isPresent();
            final long[] hashes = new long[batch];
            for (long i = 0; i < n; i += batch) {
                final int count = (int)Math.min(batch, n - i);
                for (int j = 0; j < count; j++) {
                    hashes[j] = filter.hash(random.nextLong());
                }
                for (int j = 0; j < count; j++) {
                    sink += filter.touchHash(hashes[j]);
                }
                for (int j = 0; j < count; j++) {
                    clock[1] += step;
                    if (clock[1] >= 1000) {
                        clock[0] += clock[1] / 1000;
                        clock[1] %= 1000;
                    }
                    dups += (timed ? filter.streamHash(hashes[j], clock[0]) : filter.streamHash(hashes[j])) ==
                        io.ddf.engine.Verdict.DUPLICATE ? 1 : 0;
                }
            }
            return dups;
        }
        if (filter.timeWindow().isEmpty()) {
            for (long i = 0; i < n; i++) {
                dups += filter.stream(random.nextLong()) == io.ddf.engine.Verdict.DUPLICATE ? 1 : 0;
            }
            return dups;
        }
        for (long i = 0; i < n; i++) {
            clock[1] += step;
            if (clock[1] >= 1000) {
                clock[0] += clock[1] / 1000;
                clock[1] %= 1000;
            }
            dups += filter.stream(random.nextLong(), clock[0]) == io.ddf.engine.Verdict.DUPLICATE ? 1 : 0;
        }
        return dups;
    }
}
