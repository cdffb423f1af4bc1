// Issue 29, standalone (not part of the build): change-log records an aged-cuckoo insertion appends at the promised
// rate (the add, and AGED_MOVE for each older entry a relocation moved; FORMAT-LOG.md), over six windows of CAPACITY
// new random elements each on event time, with the default sizing (eight-slot buckets at 1 %, load 0.95 at the bound).
//   javac -cp ingest/target/ddf.jar -d /tmp/mv bench/scripts/AgedMoveRecords.java
//   java $(bin/ddf jvm-flags) -cp ingest/target/ddf.jar:/tmp/mv AgedMoveRecords [CAPACITY=1000000]
import io.ddf.engine.*;
import io.ddf.persistence.log.*;
import java.nio.file.*;
import java.util.SplittableRandom;
public class AgedMoveRecords {
  public static void main(String[] a) throws Exception {
    long cap = a.length > 0 ? Long.parseLong(a[0]) : 1_000_000L; Path dir = Files.createTempDirectory("mv");
    try (ChangeLog log = ChangeLog.open(dir.resolve("log"), LogOptions.DEFAULT.withSegmentBytes(1 << 26));
         DuplicateFilter f = Filters.builder(FilterKind.AGED_CUCKOO).param("capacity", cap).param("target-fpr", 0.01)
           .param("time-source", 1).param("window-ms", 60_000L).file(dir.resolve("f.ddf")).log(log).create()) {
      SplittableRandom r = new SplittableRandom(29); long t0 = 1_700_000_000_000L; long i = 0;
      for (int w = 0; w < 6; w++) {
        long p0 = log.appended(); long added = 0;
        for (long k = 0; k < cap; k++, i++) { if (f.stream(r.nextLong(), t0 + i * 60_000L / cap) == Verdict.UNSEEN) added++; }
        long bytes = log.appended() - p0;
        System.out.printf("window %d: %d added, %d log bytes, %.3f bytes an insertion, %.3f 32-byte records an insertion%n", w + 1, added, bytes, bytes / (double) added, bytes / 32.0 / added);
      }
      System.out.println(f.parameters().toMap().get("bucket-words") + " bucket-words");
    }
  }
}
