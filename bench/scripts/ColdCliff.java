// Issue 13 measurement, standalone (not part of the build). Run against the shaded jar:
//   mvn -q -B -ntp -DskipTests package && F="$(bin/ddf jvm-flags | tr '\n' ' ')"
//   javac -cp ingest/target/ddf.jar -d /tmp/m bench/scripts/ColdCliff.java
//   java $F -cp ingest/target/ddf.jar:/tmp/m ColdCliff /work/scratch/cold.ddf 4294967296
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import java.nio.file.*;
import java.util.SplittableRandom;

/** Issue 13 item 7: the first million random inserts into a fresh 4 GiB filter against the second million. */
public class ColdCliff {
    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        long bytes = Long.parseLong(args.length > 1 ? args[1] : "4294967296");
        Files.deleteIfExists(path);
        long t0 = System.nanoTime();
        try (DuplicateFilter f = Filters.builder(FilterKind.QHT).memoryBits(bytes * 8).file(path).create()) {
            long t1 = System.nanoTime();
            System.out.printf("create %.2f s (%s)%n", (t1 - t0) / 1e9, f.parameters());
            SplittableRandom r = new SplittableRandom(42);
            for (int m = 0; m < 3; m++) {
                long s = System.nanoTime();
                for (int i = 0; i < 1_000_000; i++) f.stream(r.nextLong());
                System.out.printf("million %d: %.2f s%n", m + 1, (System.nanoTime() - s) / 1e9);
            }
            long c = System.nanoTime();
            f.close();
            System.out.printf("close %.2f s%n", (System.nanoTime() - c) / 1e9);
        } finally {
            Files.deleteIfExists(path);
        }
    }
}
