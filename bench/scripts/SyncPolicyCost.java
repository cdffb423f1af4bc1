// Issue 24 measurement, standalone (not part of the build): what a sync policy costs one writer thread streaming
// random elements into a filter (the daemon's BF.ADD filter: Tuner.forCapacity(CAPACITY, 0.01), single-writer),
// with the once-a-second background sync running (everysec), forcing each call (always) or never (no).
//   bin/ddf --version >/dev/null && F="$(bin/ddf jvm-flags | tr '\n' ' ')"
//   javac -cp ingest/target/ddf.jar -d /tmp/m bench/scripts/SyncPolicyCost.java
//   java $F -cp ingest/target/ddf.jar:/tmp/m SyncPolicyCost DIR CAPACITY POLICY SECONDS [WARMUP_SECONDS]
// DIR on the disk to measure (not tmpfs). The file is created, warmed up (every page touched, then synced), and
// streamed into for SECONDS; prints ns per stream, the per-second throughput (min, median, max), the batches of
// 1,000 streams' time (p50, p99, p99.9, max: what a writer waited, page faults after each sync included), the
// background syncs (cycles, pages forced, their total and longest time), the writer thread's own minor page faults
// and user/system CPU time (/proc/thread-self/stat: the faults after each sync write-protected the pages it wrote)
// and the device's sectors written (/sys/block/DEV/stat: machine-wide, other programs' writes included).
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.SyncPolicy;
import io.ddf.engine.internal.BackgroundSync;
import io.ddf.engine.tune.Tuner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;

public class SyncPolicyCost {
    private static final int BATCH = 1_000;

    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args[0]));
        long capacity = Long.parseLong(args[1]);
        SyncPolicy policy = SyncPolicy.valueOf(args[2].toUpperCase());
        int seconds = Integer.parseInt(args[3]);
        int warmup = args.length > 4 ? Integer.parseInt(args[4]) : 5;
        String device = args.length > 5 ? args[5] : "vda";
        Path path = dir.resolve("cost-" + capacity + "-" + policy + ".ddf");
        Files.deleteIfExists(path);
        SplittableRandom random = new SplittableRandom(24);
        try (DuplicateFilter filter = Tuner.forCapacity(capacity, 0.01).builder().file(path).singleWriter()
            .sync(policy).create()) {
            // warm-up: JIT, and every page of the file resident (one store per 4 KiB page), then on the device
            long bytes = Files.size(path);
            long warmEnd = System.nanoTime() + warmup * 1_000_000_000L;
            long warmed = 0;
            while (System.nanoTime() < warmEnd || (policy != SyncPolicy.ALWAYS && warmed < 4 * bytes / 4096)) {
                for (int i = 0; i < BATCH; i++) {
                    filter.stream(random.nextLong());
                }
                warmed += BATCH;
            }
            filter.sync();
            BackgroundSync.Stats before = BackgroundSync.stats();
            long sectorsBefore = sectorsWritten(device);
            long[] threadBefore = threadStat();
            int maxBatches = 1 << 26;
            long[] batchNanos = new long[1 << 20];
            int batches = 0;
            long[] perSecond = new long[seconds];
            long syncNanos = 0; // under everysec: the cycles' times, summed as they are seen to change
            long syncPages = 0;
            long longestSync = 0;
            long lastCycle = before.cycles();
            long start = System.nanoTime();
            long end = start + seconds * 1_000_000_000L;
            long ops = 0;
            long t = start;
            while (t < end) {
                for (int i = 0; i < BATCH; i++) {
                    filter.stream(random.nextLong());
                }
                long now = System.nanoTime();
                if (batches < batchNanos.length) {
                    batchNanos[batches] = now - t;
                }
                batches++;
                ops += BATCH;
                int second = (int)((now - start) / 1_000_000_000L);
                if (second < seconds) {
                    perSecond[second] += BATCH;
                }
                if ((batches & 63) == 0) {
                    BackgroundSync.Stats s = BackgroundSync.stats();
                    if (s.cycles() != lastCycle) {
                        lastCycle = s.cycles();
                        syncNanos += s.lastNanos();
                        syncPages += s.lastPages();
                        longestSync = Math.max(longestSync, s.lastNanos());
                    }
                }
                t = now;
            }
            long elapsed = t - start;
            long sectors = sectorsWritten(device) - sectorsBefore;
            long[] threadAfter = threadStat();
            BackgroundSync.Stats after = BackgroundSync.stats();
            long[] sorted = Arrays.copyOf(batchNanos, Math.min(batches, batchNanos.length));
            Arrays.sort(sorted);
            long[] ps = perSecond.clone();
            Arrays.sort(ps);
            System.out.printf("capacity=%d policy=%s file_MB=%d seconds=%d ops=%d ns_per_op=%.1f%n", capacity,
                policy, bytes >> 20, seconds, ops, (double)elapsed / ops);
            System.out.printf("  ops/s per second: min=%d median=%d max=%d%n", ps[0], ps[ps.length / 2],
                ps[ps.length - 1]);
            System.out.printf("  batch of %d streams, us: p50=%.1f p99=%.1f p99.9=%.1f max=%.1f%n", BATCH,
                pct(sorted, 0.50) / 1e3, pct(sorted, 0.99) / 1e3, pct(sorted, 0.999) / 1e3,
                sorted[sorted.length - 1] / 1e3);
            System.out.printf("  background syncs: cycles=%d delayed=%d seen: pages=%d (%d MB) time_ms=%.0f"
                    + " longest_ms=%.0f%n", after.cycles() - before.cycles(), after.delayed() - before.delayed(),
                syncPages, syncPages * 4096 >> 20, syncNanos / 1e6, longestSync / 1e6);
            long hz = 100; // USER_HZ
            System.out.printf("  writer thread: minor faults=%d (%.0f/s) user_s=%.2f system_s=%.2f%n",
                threadAfter[0] - threadBefore[0], (threadAfter[0] - threadBefore[0]) / (elapsed / 1e9),
                (threadAfter[1] - threadBefore[1]) / (double)hz, (threadAfter[2] - threadBefore[2]) / (double)hz);
            System.out.printf("  device %s written (machine-wide): %d MB, %.0f MB/s%n", device,
                sectors * 512 >> 20, sectors * 512 / 1048576.0 / (elapsed / 1e9));
        } finally {
            Files.deleteIfExists(path);
        }
    }

    private static double pct(long[] sorted, double p) {
        return sorted[(int)Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
    }

    /** The calling thread's minor faults, utime and stime (clock ticks), fields 10, 14 and 15 of its stat. */
    private static long[] threadStat() throws Exception {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" "); // f[0] is field 3
        return new long[] {Long.parseLong(f[7]), Long.parseLong(f[11]), Long.parseLong(f[12])};
    }

    private static long sectorsWritten(String device) throws Exception {
        Path stat = Path.of("/sys/block", device, "stat");
        if (!Files.exists(stat)) {
            return 0;
        }
        return Long.parseLong(Files.readString(stat).trim().split("\\s+")[6]);
    }
}
