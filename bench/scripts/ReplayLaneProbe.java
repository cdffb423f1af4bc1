import io.ddf.engine.bloom.BlockedBloom;
import io.ddf.engine.memory.MappedWords;
import io.ddf.persistence.platform.MappingAdvice;

import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.util.SplittableRandom;

/**
 * A change-log replay lane's work alone (issue 31, replay at 10 M records/s): {@link BlockedBloom#touchPart} of 16
 * records, then their {@link BlockedBloom#insertPart}, over a fresh file of MIB MiB mapped shared, N random hashes,
 * k bits per item, ROUNDS passes. The first pass sets the bits (stores), the later ones find them set (loads only):
 * the difference is what the stores cost. With POPULATE the table's pages are first populated writable
 * ({@link MappingAdvice#populateForWrite}) and touched ({@link MappingAdvice#touchForWrite}), so that the first pass
 * takes no page fault.
 *
 * <pre>java $(bin/ddf jvm-flags) --add-exports java.base/sun.nio.ch=ALL-UNNAMED \
 *     -cp "bench/target/classes:$(cat bench/target/classpath.txt)" bench/scripts/ReplayLaneProbe.java \
 *     FILE MIB N K ROUNDS [POPULATE]</pre>
 */
public class ReplayLaneProbe {
    static long sink;

    public static void main(String[] a) throws Exception {
        long bytes = Long.parseLong(a[1]) << 20;
        int n = Integer.parseInt(a[2]), k = Integer.parseInt(a[3]), rounds = Integer.parseInt(a[4]);
        try (RandomAccessFile f = new RandomAccessFile(a[0], "rw")) {
            f.setLength(0);
            f.setLength(bytes);
            MappedByteBuffer mapping = f.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, bytes);
            long address = ((sun.nio.ch.DirectBuffer) mapping).address();
            if (a.length > 5) {
                long t0 = System.nanoTime();
                boolean populated = MappingAdvice.populateForWrite(address, bytes);
                long pages = MappingAdvice.touchForWrite(address, bytes);
                System.out.printf("populated %s and touched %d pages in %.1f ms%n", populated, pages, (System.nanoTime() - t0) / 1e6);
            }
            BlockedBloom bloom = new BlockedBloom(new MappedWords(address, bytes / 8, true), bytes / 64, k, 1);
            long[] hashes = new long[n];
            SplittableRandom random = new SplittableRandom(42);
            for (int i = 0; i < n; i++) hashes[i] = random.nextLong();
            for (int round = 0; round < rounds; round++) {
                long t0 = System.nanoTime(), sum = 0;
                for (int from = 0; from < n; from += 16) {
                    int to = Math.min(n, from + 16);
                    for (int i = from; i < to; i++) sum += bloom.touchPart(hashes[i], 0, 1);
                    for (int i = from; i < to; i++) bloom.insertPart(hashes[i], 0, 1);
                }
                long t1 = System.nanoTime();
                for (int i = 0; i < n; i++) sum += bloom.touchPart(hashes[i], 0, 1);
                long t2 = System.nanoTime();
                sink += sum;
                System.out.printf("pass %d: touch + insert %.1f ns a record (%s), touch alone %.1f%n", round + 1,
                    (t1 - t0) / (double) n, round == 0 ? "bits set: stores" : "bits found set: loads", (t2 - t1) / (double) n);
            }
            System.out.println("(" + (sink + mapping.get(0)) + ")");
        }
    }
}
