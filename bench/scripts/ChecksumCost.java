// Issue 13 measurement, standalone (not part of the build). Run against the shaded jar:
//   mvn -q -B -ntp -DskipTests package && F="$(bin/ddf jvm-flags | tr '\n' ' ')"
//   javac -cp ingest/target/ddf.jar -d /tmp/m bench/scripts/ChecksumCost.java
//   java $F -cp ingest/target/ddf.jar:/tmp/m ChecksumCost /work/scratch/cc.ddf 17179869184 2
import io.ddf.persistence.FilterFile;
import io.ddf.persistence.FilterFileSpec;
import org.agrona.concurrent.UnsafeBuffer;
import java.nio.file.*;

/** Issue 13 item 2: what open and close cost on a large filter file (with format 2.0, what the checksum adds). */
public class ChecksumCost {
    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        long table = Long.parseLong(args[1]);
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Files.deleteIfExists(path);
        FilterFileSpec spec = new FilterFileSpec(1, 2, 42L, null, new long[0], table);
        try {
            long t = System.nanoTime();
            FilterFile f = FilterFile.create(path, spec);
            System.out.printf("create %.2f s%n", (System.nanoTime() - t) / 1e9);
            touch(f, 1);
            t = System.nanoTime();
            f.close();
            System.out.printf("close after writes %.2f s%n", (System.nanoTime() - t) / 1e9);
            for (int r = 0; r < rounds; r++) {
                t = System.nanoTime();
                f = FilterFile.open(path);
                double open = (System.nanoTime() - t) / 1e9;
                t = System.nanoTime();
                f.close();
                double closeUnchanged = (System.nanoTime() - t) / 1e9;
                f = FilterFile.open(path);
                touch(f, r + 2);
                t = System.nanoTime();
                f.close();
                double closeChanged = (System.nanoTime() - t) / 1e9;
                System.out.printf("round %d: open %.3f s, close unchanged %.3f s, close after 1 word per MiB changed %.3f s%n",
                    r, open, closeUnchanged, closeChanged);
            }
        } finally {
            Files.deleteIfExists(path);
        }
    }

    /** One word per MiB, so the close has dirty pages to force but the test stays about the checksum. */
    static void touch(FilterFile f, long v) {
        for (long o = 0; o < f.tableLength(); o += 1 << 20) {
            new UnsafeBuffer(f.tableAddress() + o, 8).putLong(0, v);
        }
    }
}
