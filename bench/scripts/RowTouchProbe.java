/*
 * What BloomCore.touch saves the plain Bloom kind (KIND bloom, RedisBloom NONSCALING's layout: k lines per element)
 * when a batch touches its rows first, as the raw feed (VerdictRing.submitHashes), BF.MADD and the pipeline do: one
 * thread, a fixed-size filter of KIND (bloom: 10^7 at 1 %, 7 hash functions; fifo: fifo-bloom of 10^7) in DIR, written
 * through a change log in DIR/log (as the daemon's everysec: appended, never forced here), random hashes in groups of
 * 16. Rounds of N alternated: nothing touched, then the 16 rows touched before the 16 streams; the thread's CPU ns
 * per element (the first rounds also pay the fresh table's page faults: compare neighbours).
 *   java $(bin/ddf jvm-flags) -Xmx512m -cp ingest/target/ddf.jar bench/scripts/RowTouchProbe.java DIR KIND N
 */

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.LogOptions;
import java.lang.management.ManagementFactory;
import java.nio.file.*;

public final class RowTouchProbe {
  public static void main(String[] a) throws Exception {
    Path dir = Paths.get(a[0]);
    String kind = a[1];
    long n = Long.parseLong(a[2]);
    Files.createDirectories(dir);
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).filter(p -> !p.equals(dir)).forEach(p -> p.toFile().delete());
    }
    ChangeLog log = ChangeLog.open(dir.resolve("log"), LogOptions.DEFAULT);
    DuplicateFilter f = (kind.equals("bloom") ? Filters.builder(FilterKind.BLOOM).memoryBits(95_850_584L)
        .param("hash-functions", 7L) : Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", 10_000_000L))
        .seed(42).file(dir.resolve("probe.ddf")).log(log).create();
    var bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    java.util.SplittableRandom r = new java.util.SplittableRandom(7);
    long sink = 0;
    long[] h = new long[16];
    for (int round = 0; round < 10; round++) {
      boolean touchLog = round % 2 == 1;
      long t0 = bean.getCurrentThreadCpuTime();
      for (long i = 0; i < n; i += 16) {
        
        for (int j = 0; j < 16; j++) {
          h[j] = r.nextLong();
          if (touchLog) sink += f.touchHash(h[j]);
        }
        for (int j = 0; j < 16; j++) {
          sink += f.streamHash(h[j]) == Verdict.DUPLICATE ? 1 : 0;
        }
      }
      long t1 = bean.getCurrentThreadCpuTime();
      System.out.printf("round %d %-22s %.1f ns CPU per element%n", round, touchLog ? "rows touched" : "nothing touched", (t1 - t0) / (double) n);
    }
    System.out.println("sink " + (sink & 1));
    f.close();
    log.close();
  }
}
