// Issue 13, item 7: can HotSpot confine the SIGBUS of a truncated mapping? Standalone, not part of the build:
//   javac --add-exports java.base/sun.nio.ch=ALL-UNNAMED -d /tmp/probe bench/scripts/SigbusProbe.java
//   java --add-exports java.base/sun.nio.ch=ALL-UNNAMED -cp /tmp/probe SigbusProbe unsafe|unsafevolatile|buffer|copy [dir]
//   (add -Xint to see the interpreter). Findings (Java 17.0.15): persistence/.../FORMAT.md, "Files changed from outside".
import java.io.RandomAccessFile;
import java.lang.reflect.Field;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import sun.misc.Unsafe;

/** Does HotSpot turn a SIGBUS from a truncated mapping into a Java exception, and where? */
public class SigbusProbe {
    static Unsafe U;
    static long sink;

    public static void main(String[] args) throws Exception {
        Field f = Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        U = (Unsafe) f.get(null);
        String mode = args[0];
        Path p = Files.createTempFile(Path.of(args.length > 1 ? args[1] : "/work/fr-scratch"), "probe", ".bin");
        long len = 64L << 20;
        try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
            raf.setLength(len);
            MappedByteBuffer mbb = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, len);
            long addr = ((sun.nio.ch.DirectBuffer) mbb).address();
            // warm up: compile the access loops with a good mapping
            for (int r = 0; r < 200; r++) { sink += readLoop(mode, mbb, addr, len); writeLoop(mode, mbb, addr, len, r); }
            System.out.println("warm; truncating " + p);
            try (RandomAccessFile other = new RandomAccessFile(p.toFile(), "rw")) { other.setLength(4096); }
            int caught = 0;
            for (int round = 0; round < 5; round++) {
                try {
                    if (round % 2 == 0) sink += readLoop(mode, mbb, addr, len); else writeLoop(mode, mbb, addr, len, round);
                    System.out.println("round " + round + ": no exception");
                } catch (Throwable t) {
                    caught++;
                    System.out.println("round " + round + ": caught " + t);
                }
            }
            System.out.println("survived; caught " + caught + " of 5; sink " + sink);
        } finally {
            Files.deleteIfExists(p);
        }
    }

    static long readLoop(String mode, MappedByteBuffer mbb, long addr, long len) {
        long s = 0;
        for (long o = 0; o < len; o += 4096) {
            switch (mode) {
                case "unsafe": s += U.getLong(addr + o); break;
                case "unsafevolatile": s += U.getLongVolatile(null, addr + o); break;
                case "buffer": s += mbb.getLong((int) o); break;
                case "copy": { long[] a = new long[8]; U.copyMemory(null, addr + o, a, Unsafe.ARRAY_LONG_BASE_OFFSET, 64); s += a[0]; break; }
                default: throw new IllegalArgumentException(mode);
            }
        }
        return s;
    }

    static void writeLoop(String mode, MappedByteBuffer mbb, long addr, long len, int v) {
        for (long o = 0; o < len; o += 4096) {
            switch (mode) {
                case "unsafe": U.putLong(addr + o, v); break;
                case "unsafevolatile": U.compareAndSwapLong(null, addr + o, U.getLongVolatile(null, addr + o), v); break;
                case "buffer": mbb.putLong((int) o, v); break;
                case "copy": U.setMemory(addr + o, 64, (byte) v); break;
                default: throw new IllegalArgumentException(mode);
            }
        }
    }
}
