// Issue 29, standalone (not part of the build): what APBF itself (Shtul, Baquero and Almeida, 2020; the memory
// target's own design) costs a stream() call at its bound, beside ddf's count-turned fifo-bloom of the same capacity
// and error rate: is a filter at APBF's memory within 1.1x of fifo-bloom's cost on this machine? The APBF is the
// accuracy harness's reference (bench/src/main/java/io/ddf/bench/reference/Apbf.java: on the heap, one thread, no
// file, no compare-and-swap: cheaper than a product filter could be), the paper's design for 1 % (ApbfModel
// .paperDesign), turned by count. fifo-bloom: single writer, no file. Each first streams WARM x CAPACITY random
// elements (the steady state), then ROUNDS slices of CAPACITY, alternated; the medians of the thread's CPU ns an
// element. Every element is new (random 64-bit), as at the bound of a window of new ids.
//   javac -cp bench/target/benchmarks.jar -d /tmp/apbf bench/scripts/ApbfCost.java
//   java $(bin/ddf jvm-flags) -cp /tmp/apbf:bench/target/benchmarks.jar ApbfCost [CAPACITY=10000000] [ROUNDS=5]
//        [WARM=2]
import io.ddf.bench.reference.Apbf;
import io.ddf.bench.reference.ApbfModel;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.hash.Mix;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.SplittableRandom;

public class ApbfCost {
    static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    static long sink;

    public static void main(final String[] args) {
        final long capacity = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        final int warm = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        final int[] kl = ApbfModel.paperDesign(0.01);
        final Apbf apbf = Apbf.design(capacity, kl[0], kl[1]);
        final DuplicateFilter fifo = Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", capacity)
            .param("target-fpr", 0.01).singleWriter().create();
        System.out.printf("APBF k %d l %d: %.2f bits an item (%d bits); fifo-bloom (count): %.2f bits an item%n", kl[0],
            kl[1], apbf.memoryBits() / (double)capacity, apbf.memoryBits(),
            fifo.parameters().tableBytes() * 8.0 / capacity);
        final SplittableRandom random = new SplittableRandom(Long.getLong("ddf.test.seed", 29));
        final double[][] ns = new double[2][rounds];
        for (int w = 0; w < warm; w++) {
            run(apbf, null, capacity, random);
            run(null, fifo, capacity, random);
        }
        for (int r = 0; r < rounds; r++) {
            ns[0][r] = run(apbf, null, capacity, random);
            ns[1][r] = run(null, fifo, capacity, random);
            System.out.printf("round %d: APBF %.1f ns, fifo-bloom %.1f ns an element%n", r + 1, ns[0][r], ns[1][r]);
        }
        Arrays.sort(ns[0]);
        Arrays.sort(ns[1]);
        System.out.printf("median: APBF %.1f ns, fifo-bloom (count) %.1f ns an element: %.2fx (%d)%n",
            ns[0][rounds / 2], ns[1][rounds / 2], ns[0][rounds / 2] / ns[1][rounds / 2], sink);
    }

    static double run(final Apbf apbf, final DuplicateFilter fifo, final long items, final SplittableRandom random) {
        final long start = CPU.getCurrentThreadCpuTime();
        long duplicates = 0;
        for (long i = 0; i < items; i++) {
            final long element = random.nextLong();
            duplicates += apbf != null ? (apbf.stream(Mix.mix64(element)) ? 1 : 0) :
                (fifo.stream(element) == io.ddf.engine.Verdict.DUPLICATE ? 1 : 0);
        }
        sink += duplicates;
        return (CPU.getCurrentThreadCpuTime() - start) / (double)items;
    }
}
