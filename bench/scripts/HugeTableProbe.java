// Issue 31 item 10, standalone (not part of the build): where should a 10^9 filter's live table live? Random
// one-cache-line updates, as ddf's blocked Bloom layer makes them (the engine's own BlockedBloom.insert over an owned
// MappedWords: one 64-byte block per item, k = 6 bits), into a table of BYTES placed in different memories, variants
// alternated in rounds, each run for SECONDS on one thread:
//   ext4         a file on the data disk, made as the engine makes a chain's file (SegmentedFile: fallocate), mapped
//                MAP_SHARED with no madvise (as the engine's mappings were before MappingAdvice), faulted in writable
//                first (MADV_POPULATE_WRITE, as FileCreation does for fixed files)
//   ext4-huge    the same with madvise(MADV_HUGEPAGE) on the mapping before the populate
//   ext4loop     as ext4, on a file system of its own (-Dloop.dir, an ext4 on a loop device, -Dloop.device, whose
//                counters give its device column): writeback there is the kernel's own (30 s dirty expiry), not
//                also the syncs (syncfs, sync) other processes run on the shared disk's file system
//   ext4loop-huge  the same with MADV_HUGEPAGE
//   shm          a file in /dev/shm (tmpfs, mounted without huge=; shmem_enabled never here), MAP_SHARED
//   shm-huge     the same with MADV_HUGEPAGE (whether a user's madvise gets huge pages from such a tmpfs)
//   hugetmpfs    a file on a tmpfs mounted with huge=always (HUGE_DIR; mounting it needs root), MAP_SHARED
//   anon         anonymous private memory, 4 KiB pages (THP "madvise" here, no madvise: what Redis gets)
//   anon-huge    anonymous private memory with MADV_HUGEPAGE
//   javac -cp ingest/target/ddf.jar -d /tmp/htp bench/scripts/HugeTableProbe.java
//   java $(bin/ddf jvm-flags) -Xmx256m -Dloop.dir=LOOP_DIR -Dloop.device=loop0 -cp ingest/target/ddf.jar:/tmp/htp \
//        HugeTableProbe EXT4_DIR HUGE_DIR [SECONDS=100] [ROUNDS=2] [BYTES=1468006400]
//        [VARIANTS=ext4,ext4-huge,ext4loop,ext4loop-huge,shm,shm-huge,hugetmpfs,anon,anon-huge]
// The huge tmpfs and the loop file system, as root: mount -t tmpfs -o size=4g,huge=always tmpfs HUGE_DIR;
//   truncate -s 6G IMG; losetup --find --show --direct-io=on IMG; mkfs.ext4 /dev/loopN; mount /dev/loopN LOOP_DIR
// Per variant and round: the populate's time; ns per update, wall clock and the thread's CPU time (which the other
// processes of a shared machine change less), the CPU time also split into the first 25 s (before the kernel's 30 s
// dirty expiry can start writing a file-backed table back) and the rest; minor faults (/proc/self/stat) per second; the mapping's huge pages
// (/proc/self/smaps: AnonHugePages, ShmemPmdMapped, FilePmdMapped of the table's mapping) at the end; the bytes the
// process dirtied (/proc/self/io write_bytes) and the device's written bytes (/sys/block/DEV/stat, all processes)
// per second (the variant's device: the shared disk, or the loop device for ext4loop). Prints one line per variant
// and round, then a markdown table of the medians over the rounds.
import io.ddf.engine.bloom.BlockedBloom;
import io.ddf.engine.hash.Mix;
import io.ddf.engine.memory.MappedWords;
import io.ddf.persistence.SegmentedFile;
import net.openhft.posix.PosixAPI;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class HugeTableProbe {
    static final int PROT_RW = 3, MAP_SHARED = 1, MAP_PRIVATE = 2, MAP_ANONYMOUS = 0x20;
    static final int MADV_HUGEPAGE = 14, MADV_POPULATE_WRITE = 23;
    static final long HUGE = 2L << 20;
    static final long WINDOW_NS = 1_000_000_000L;
    static final long EARLY_NS = 25_000_000_000L;
    static final String DEVICE = System.getProperty("device", "vda");
    static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();

    record Result(String variant, int round, double populateS, double meanNs, double cpuNs, double cpuEarlyNs,
                  double cpuLateNs, double faultsPerS, long hugeKb, double dirtiedMBps, double deviceMBps,
                  long updates) {
        @Override
        public String toString() {
            return String.format("%s round=%d populate_s=%.2f wall_ns=%.1f cpu_ns=%.1f cpu_first25s_ns=%.1f "
                    + "cpu_after25s_ns=%.1f faults_per_s=%.0f huge_mapped_kB=%d dirtied_MBps=%.1f device_MBps=%.1f "
                    + "updates=%d",
                variant, round, populateS, meanNs, cpuNs, cpuEarlyNs, cpuLateNs, faultsPerS, hugeKb, dirtiedMBps,
                deviceMBps, updates);
        }
    }

    /** A mapped table and how to let it go. */
    record Table(long address, long bytes, AutoCloseable release) {
    }

    public static void main(String[] args) throws Exception {
        Path ext4 = Path.of(args[0]);
        Path hugeDir = Path.of(args[1]);
        long seconds = args.length > 2 ? Long.parseLong(args[2]) : 100;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 2;
        long bytes = args.length > 4 ? Long.parseLong(args[4]) : 1_468_006_400L;
        List<String> variants = List.of((args.length > 5 ? args[5]
            : "ext4,ext4-huge,ext4loop,ext4loop-huge,shm,shm-huge,hugetmpfs,anon,anon-huge").split(","));
        if (bytes % HUGE != 0) {
            throw new IllegalArgumentException("BYTES must be a multiple of 2 MiB");
        }
        Files.createDirectories(ext4);
        System.out.println("uptime: " + uptime());
        Map<String, List<Result>> all = new LinkedHashMap<>();
        long seed = 1;
        for (int round = 1; round <= rounds; round++) {
            for (String variant : variants) {
                Result r = run(variant, round, ext4, hugeDir, bytes, seconds, seed++);
                System.out.println(r + "  uptime: " + uptime());
                all.computeIfAbsent(variant, v -> new ArrayList<>()).add(r);
            }
        }
        System.out.println("uptime: " + uptime());
        System.out.println();
        System.out.println("| variant | populate s | wall ns/update | CPU ns/update | CPU ns/update, first 25 s | "
            + "CPU ns/update, after 25 s | minor faults/s | huge pages mapped (MB) | MB/s dirtied by the process | "
            + "device MB/s (all) |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for (Map.Entry<String, List<Result>> e : all.entrySet()) {
            List<Result> rs = e.getValue();
            System.out.printf("| %s | %.2f | %.1f | %.1f | %.1f | %.1f | %.0f | %d | %.1f | %.1f |%n", e.getKey(),
                med(rs, Result::populateS), med(rs, Result::meanNs), med(rs, Result::cpuNs),
                med(rs, Result::cpuEarlyNs), med(rs, Result::cpuLateNs), med(rs, Result::faultsPerS),
                (long)med(rs, r -> r.hugeKb() / 1024.0), med(rs, Result::dirtiedMBps), med(rs, Result::deviceMBps));
        }
    }

    static double med(List<Result> rs, java.util.function.ToDoubleFunction<Result> f) {
        double[] v = rs.stream().mapToDouble(f).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    static Table place(String variant, Path ext4, Path hugeDir, long bytes) throws Exception {
        PosixAPI posix = PosixAPI.posix();
        switch (variant) {
            case "anon", "anon-huge" -> {
                // over-map by 2 MiB and use the aligned part, so a huge page can cover every 2 MiB of the table
                long raw = posix.mmap(0, bytes + HUGE, PROT_RW, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (raw == -1 || raw == 0) {
                    throw new IllegalStateException("mmap failed: " + posix.lastErrorStr());
                }
                long address = (raw + HUGE - 1) & -HUGE;
                if (variant.equals("anon-huge")) {
                    check(posix.madvise(address, bytes, MADV_HUGEPAGE), "MADV_HUGEPAGE");
                }
                return new Table(address, bytes, () -> posix.munmap(raw, bytes + HUGE));
            }
            default -> {
                Path dir = switch (variant) {
                    case "ext4", "ext4-huge" -> ext4;
                    case "ext4loop", "ext4loop-huge" -> Path.of(System.getProperty("loop.dir"));
                    case "shm", "shm-huge" -> Path.of("/dev/shm");
                    case "hugetmpfs" -> hugeDir;
                    default -> throw new IllegalArgumentException("unknown variant " + variant);
                };
                Path file = dir.resolve("huge-table-probe-" + ProcessHandle.current().pid() + ".tbl");
                Files.deleteIfExists(file);
                // the engine's own creation (fallocate, then the file under its name), then a plain MAP_SHARED
                // mapping with no hint but the variant's: SegmentedFile.map asks for huge pages itself since
                // MappingAdvice, and no madvise takes a mapping back to "no hint"
                SegmentedFile.create(file, bytes, f -> { }).close();
                java.io.RandomAccessFile raf = new java.io.RandomAccessFile(file.toFile(), "rw");
                java.nio.MappedByteBuffer mapped = raf.getChannel()
                    .map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, bytes);
                long address = org.agrona.BufferUtil.address(mapped);
                if (variant.endsWith("-huge")) {
                    check(posix.madvise(address, bytes, MADV_HUGEPAGE), "MADV_HUGEPAGE");
                }
                return new Table(address, bytes, () -> {
                    org.agrona.IoUtil.unmap(mapped);
                    raf.close();
                    Files.deleteIfExists(file);
                });
            }
        }
    }

    static void check(int rc, String what) {
        if (rc != 0) {
            throw new IllegalStateException(what + " failed: " + PosixAPI.posix().lastErrorStr());
        }
    }

    static Result run(String variant, int round, Path ext4, Path hugeDir, long bytes, long seconds, long seed)
        throws Exception {
        Table table = place(variant, ext4, hugeDir, bytes);
        try {
            long p0 = System.nanoTime();
            check(PosixAPI.posix().madvise(table.address(), bytes, MADV_POPULATE_WRITE), "MADV_POPULATE_WRITE");
            double populateS = (System.nanoTime() - p0) / 1e9;
            long blocks = bytes / 64;
            BlockedBloom bloom = new BlockedBloom(new MappedWords(table.address(), bytes / 8, true), blocks, 6, 1);
            String device = variant.startsWith("ext4loop") ? System.getProperty("loop.device", "loop0") : DEVICE;
            long f0 = minorFaults(), w0 = writeBytes(), d0 = deviceSectors(device);
            long c0 = CPU.getCurrentThreadCpuTime(), cEarly = -1, uEarly = 0;
            long t0 = System.nanoTime(), windowStart = t0, updates = 0;
            long end = t0 + seconds * 1_000_000_000L;
            long x = seed * 0x632BE59BD9B4E019L;
            long hugeKb = 0;
            while (true) {
                for (int i = 0; i < 4096; i++) {
                    bloom.insert(Mix.mix64(x++));
                }
                updates += 4096;
                long now = System.nanoTime();
                if (now - windowStart >= WINDOW_NS) {
                    windowStart = now;
                    if (cEarly < 0 && now - t0 >= EARLY_NS) {
                        cEarly = CPU.getCurrentThreadCpuTime();
                        uEarly = updates;
                    }
                    if (now >= end) {
                        break;
                    }
                    if (hugeKb == 0 && now - t0 > seconds * 500_000_000L) {
                        hugeKb = hugeMappedKb(table.address());
                    }
                }
            }
            long t1 = System.nanoTime();
            long c1 = CPU.getCurrentThreadCpuTime();
            long f1 = minorFaults(), w1 = writeBytes(), d1 = deviceSectors(device);
            hugeKb = Math.max(hugeKb, hugeMappedKb(table.address()));
            double s = (t1 - t0) / 1e9;
            double earlyNs = cEarly < 0 ? Double.NaN : (cEarly - c0) / (double)uEarly;
            double lateNs = cEarly < 0 ? Double.NaN : (c1 - cEarly) / (double)(updates - uEarly);
            return new Result(variant, round, populateS, (t1 - t0) / (double)updates, (c1 - c0) / (double)updates,
                earlyNs, lateNs, (f1 - f0) / s, hugeKb, (w1 - w0) / s / 1048576, (d1 - d0) * 512 / s / 1048576,
                updates);
        } finally {
            table.release().close();
        }
    }

    static long minorFaults() throws Exception {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[7]); // field 10 of stat: minflt
    }

    static long writeBytes() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
            if (line.startsWith("write_bytes:")) {
                return Long.parseLong(line.substring(12).trim());
            }
        }
        return -1;
    }

    static long deviceSectors(String device) throws Exception {
        String[] f = Files.readString(Path.of("/sys/block/" + device + "/stat")).trim().split("\\s+");
        return Long.parseLong(f[6]);
    }

    /** @return AnonHugePages + ShmemPmdMapped + FilePmdMapped of the mapping that holds address, in kB. */
    static long hugeMappedKb(long address) throws Exception {
        boolean in = false;
        long kb = 0;
        for (String line : Files.readAllLines(Path.of("/proc/self/smaps"))) {
            if (Character.isDigit(line.charAt(0)) || (line.charAt(0) >= 'a' && line.charAt(0) <= 'f')) {
                int dash = line.indexOf('-');
                int space = line.indexOf(' ');
                if (dash > 0 && space > dash) {
                    long lo = Long.parseUnsignedLong(line.substring(0, dash), 16);
                    long hi = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                    in = address >= lo && address < hi;
                    continue;
                }
            }
            if (in && (line.startsWith("AnonHugePages:") || line.startsWith("ShmemPmdMapped:")
                || line.startsWith("FilePmdMapped:"))) {
                kb += Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return kb;
    }

    static String uptime() throws Exception {
        return Files.readString(Path.of("/proc/loadavg")).trim();
    }
}
