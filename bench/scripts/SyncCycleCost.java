// Issue 24 measurement, standalone (not part of the build): what one once-a-second sync cycle (everysec) costs with
// many filters, each with one changed page, written back file by file (msync each) or together (syncfs).
//   bin/ddf --version >/dev/null && F="$(bin/ddf jvm-flags | tr '\n' ' ')"
//   javac -cp ingest/target/ddf.jar -d /tmp/m bench/scripts/SyncCycleCost.java
//   java $F -cp ingest/target/ddf.jar:/tmp/m -Dddf.sync.batchMin=1000000000 SyncCycleCost DIR 1000 5   (each)
//   java $F -cp ingest/target/ddf.jar:/tmp/m -Dddf.sync.batchMin=1 SyncCycleCost DIR 1000 5            (together)
//   java $F -cp ingest/target/ddf.jar:/tmp/m SyncCycleCost DIR 1000 5                                   (the default: the first 63 each, the rest together)
// DIR on the disk to measure (not tmpfs); prints the median and range of the cycles' times.
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.SyncPolicy;
import io.ddf.engine.tune.Tuner;
import io.ddf.engine.internal.BackgroundSync;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class SyncCycleCost {
    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args[0]));
        int count = Integer.parseInt(args[1]);
        int cycles = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        BackgroundSync.pause(true); // this program runs the cycles itself
        List<DuplicateFilter> filters = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                Path path = dir.resolve("f" + i + ".ddf");
                Files.deleteIfExists(path);
                filters.add(Tuner.forCapacity(10_000, 0.01).builder().file(path).sync(SyncPolicy.EVERYSEC)
                    .create());
            }
            BackgroundSync.runOnce(); // the creations' pages
            double[] ms = new double[cycles];
            long element = 0;
            for (int c = 0; c < cycles; c++) {
                for (DuplicateFilter f : filters) {
                    f.stream(element++); // one changed page (and the counters) per filter
                }
                BackgroundSync.Stats s = BackgroundSync.runOnce();
                ms[c] = s.lastNanos() / 1e6;
                System.out.printf("cycle %d: %.1f ms, %d filters, %d pages%n", c, ms[c], s.lastFilters(), s.lastPages());
            }
            Arrays.sort(ms);
            System.out.printf("filters=%d batchMin=%s median_ms=%.1f min_ms=%.1f max_ms=%.1f%n", count,
                System.getProperty("ddf.sync.batchMin", "64"), ms[ms.length / 2], ms[0], ms[ms.length - 1]);
        } finally {
            for (DuplicateFilter f : filters) {
                f.close();
                Files.deleteIfExists(f.path());
            }
        }
    }
}
