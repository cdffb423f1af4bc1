/*
 * What a change log page costs its writers by each route (issue 31: the staging ring, StagingRing): 32-byte records
 * written into MB MiB at DIR, CYCLES laps, the thread's CPU per 4 KiB page and its page faults.
 *   mapped:  a file mapped and written through the mapping, then forced (msync), lap after lap: the segments' old route
 *            (the readying's populate and one store a page, then the records, then the force).
 *   ring:    the same on a file never forced (the staging ring: its pages stay written from lap to lap).
 *   pwrite:  records filled into a 1 MiB buffer and written with positional writes into a file, then fdatasync (the
 *            copy from the ring into a segment).
 *   java --add-exports=java.base/sun.nio.ch=ALL-UNNAMED -cp ingest/target/ddf.jar bench/scripts/StagingProbe.java DIR MB CYCLES
 * 2026-11-30, this machine (PVM guest, DIR on ext4, 64 MiB, 3 laps, load 2.2, a CI run beside it): mapped 11.9 µs a
 * page on the first lap, 13.7-20.3 on the later ones (the force write-protected every page), 49-60 ms of CPU per
 * 64 MiB force; ring 11.1 µs a page on its first lap, then 0.22-0.26 (records included, no fault); pwrite 2.5 µs a
 * page on a fresh file's first lap, then 0.69, and 2-3 ms per 64 MiB fdatasync. An earlier probe of the same routes
 * (load ~1) gave 12-16 µs a page for a mapped page written back, 0.04-0.08 for a ring on /dev/shm, 0.8-2.2 by pwrite.
 */

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

public final class StagingProbe {
  private static final com.sun.management.ThreadMXBean BEAN =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  static long faults() throws Exception {
    String st = Files.readString(Path.of("/proc/thread-self/stat"));
    String[] f = st.substring(st.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[7]);
  }

  static void mapped(Path p, int mb, int cycles, boolean force) throws Exception {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      ch.truncate(0);
      ch.write(ByteBuffer.allocate(1), ((long) mb << 20) - 1);
      MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_WRITE, 0, (long) mb << 20);
      m.order(ByteOrder.nativeOrder());
      int n = mb << 20;
      for (int c = 0; c < cycles; c++) {
        long t0 = BEAN.getCurrentThreadCpuTime(), f0 = faults();
        for (int i = 0; i < n; i += 4096) m.put(i, (byte) 0); // the readying's one store a page
        for (int i = 0; i < n; i += 32) { m.putLong(i, i + c); m.putLong(i + 8, i); m.putLong(i + 16, i); m.putLong(i + 24, c); }
        long t1 = BEAN.getCurrentThreadCpuTime(), f1 = faults();
        if (force) m.force();
        long t2 = BEAN.getCurrentThreadCpuTime();
        System.out.printf("%s lap %d: %.2f us a page (%.2f faults a page)%s%n", force ? "mapped" : "ring", c,
            (t1 - t0) / 1e3 / (n / 4096), (f1 - f0) / (double) (n / 4096),
            force ? String.format(", force %.1f ms CPU", (t2 - t1) / 1e6) : ", never forced");
      }
    }
    Files.deleteIfExists(p);
  }

  static void pwrite(Path p, int mb, int cycles) throws Exception {
    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.nativeOrder());
    long n = (long) mb << 20;
    for (int c = 0; c < cycles; c++) {
      Files.deleteIfExists(p);
      try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
        ByteBuffer z = ByteBuffer.allocateDirect(1 << 20);
        for (long off = 0; off < n; off += 1 << 20) { z.clear(); ch.write(z, off); } // preallocated, as a segment
        ch.force(false);
        long t0 = BEAN.getCurrentThreadCpuTime();
        for (long off = 0; off < n; off += buf.capacity()) {
          for (int i = 0; i < buf.capacity(); i += 32) { buf.putLong(i, off + i); buf.putLong(i + 8, i); buf.putLong(i + 16, i); buf.putLong(i + 24, c); }
          buf.clear();
          while (buf.hasRemaining()) ch.write(buf, off + buf.position());
        }
        long t1 = BEAN.getCurrentThreadCpuTime();
        ch.force(false);
        long t2 = BEAN.getCurrentThreadCpuTime();
        System.out.printf("pwrite lap %d: %.2f us a page (records filled and written), fdatasync %.1f ms CPU%n", c,
            (t1 - t0) / 1e3 / (n / 4096), (t2 - t1) / 1e6);
      }
    }
    Files.deleteIfExists(p);
  }

  public static void main(String[] a) throws Exception {
    Path dir = Path.of(a[0]);
    int mb = Integer.parseInt(a[1]);
    int cycles = Integer.parseInt(a[2]);
    mapped(dir.resolve("staging-probe-mapped"), mb, cycles, true);
    mapped(dir.resolve("staging-probe-ring"), mb, cycles, false);
    pwrite(dir.resolve("staging-probe-pwrite"), mb, cycles);
  }
}
