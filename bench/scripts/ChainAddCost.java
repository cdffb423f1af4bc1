// Issue 31 item 10, standalone (not part of the build): what a BF.ADD into ddf's default filter at 10^9 costs beyond
// touching its one block. In one process, on one thread, variants alternated in slices of SLICE seconds, medians of
// the thread's CPU ns per add over the slices:
//   chain         BloomChain.add(item) on BloomChain.create(DIR/chain.ddfs, CAPACITY, 0.01, scaling, expansion 2)
//                 (BF.RESERVE k 0.01 CAPACITY; the item 12 bytes, as redis-benchmark's __rand_int__)
//   hash+contains+insert  the same steps without the chain: XXH3 of the item (the chain's hasher), the blocked layer's
//                 contains, then its insert, on a table of the chain's first layer's geometry
//   hash+insert   XXH3, then insert (one pass over the block)
//   insert        a mixed counter as the hash, then insert: the block touch alone
//   hash          XXH3 of the item alone (no memory touched but the item)
// DIR should be a tmpfs (/dev/shm, the default) so the kernel's writeback of a disk file (its write-protect faults)
// does not land in one variant's slices more than another's; the tables are faulted in before the slices (the chain's
// by WARMUP adds, the raw table by MADV_POPULATE_WRITE).
//   javac -cp ingest/target/ddf.jar -d /tmp/cac bench/scripts/ChainAddCost.java
//   java $(bin/ddf jvm-flags) -cp ingest/target/ddf.jar:/tmp/cac ChainAddCost [DIR=/dev/shm] [CAPACITY=1000000000]
//        [SLICE=2] [SLICES_PER_VARIANT=9] [WARMUP=6000000] [VARIANTS=chain,hash+contains+insert,...]
// It prints "slices start" once warm, for a profiler to attach then (bench/scripts/async-profiler-lib.sh, jcmd).
import io.ddf.engine.bloom.BlockedBloom;
import io.ddf.engine.hash.ElementHasher;
import io.ddf.engine.hash.Mix;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.model.BlockedBloomModel;
import io.ddf.engine.scaling.BloomChain;
import io.ddf.persistence.SegmentedFile;
import net.openhft.posix.PosixAPI;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class ChainAddCost {
    static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    static final long SEED = 0x5EEDL;
    static final int BATCH = 4096;
    static long sink;

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "/dev/shm");
        long capacity = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000_000L;
        long slice = (long)((args.length > 2 ? Double.parseDouble(args[2]) : 2) * 1e9);
        int slices = args.length > 3 ? Integer.parseInt(args[3]) : 9;
        long warmup = args.length > 4 ? Long.parseLong(args[4]) : 6_000_000L;
        List<String> only = args.length > 5 ? List.of(args[5].split(",")) : null;
        String tag = "chain-add-cost-" + ProcessHandle.current().pid();
        Path chainPath = dir.resolve(tag + ".ddfs");
        Path tablePath = dir.resolve(tag + ".tbl");
        System.out.println("loadavg: " + Files.readString(Path.of("/proc/loadavg")).trim());
        BloomChain chain = BloomChain.create(chainPath, capacity, 0.01, false, 2, SEED);
        // the chain's first layer: the error rate halved, as BF.RESERVE's scaling filter (BloomChain.TIGHTENING)
        BlockedBloomModel geometry = BlockedBloomModel.size(capacity, 0.01 * BloomChain.TIGHTENING);
        long bytes = (geometry.blocks() * 64 + SegmentedFile.PAGE - 1) / SegmentedFile.PAGE * SegmentedFile.PAGE;
        SegmentedFile table = SegmentedFile.create(tablePath, bytes, f -> { });
        try {
            long address = table.map(0, bytes);
            if (PosixAPI.posix().madvise(address, bytes, 23 /* MADV_POPULATE_WRITE */) != 0) {
                throw new IllegalStateException("MADV_POPULATE_WRITE: " + PosixAPI.posix().lastErrorStr());
            }
            BlockedBloom bloom = new BlockedBloom(new MappedWords(address, bytes / 8, true), geometry.blocks(),
                geometry.hashFunctions(), geometry.blocksPerItem());
            ElementHasher hasher = ElementHasher.of(ElementHasher.XXH3, SEED, null);
            System.out.printf("chain: %s%ntable: %d blocks, k %d, %d blocks per item, %d bytes%n",
                String.join(" ", chain.debug()), geometry.blocks(), geometry.hashFunctions(),
                geometry.blocksPerItem(), bytes);
            UnsafeBuffer item = new UnsafeBuffer(new byte[12]);
            long[] x = {1};
            Map<String, Runnable> variants = new LinkedHashMap<>();
            variants.put("chain", () -> {
                for (int i = 0; i < BATCH; i++) {
                    next(item, x);
                    chain.add(item, 0, 12);
                }
            });
            variants.put("hash+contains+insert", () -> {
                for (int i = 0; i < BATCH; i++) {
                    next(item, x);
                    long h = hasher.hash(item, 0, 12);
                    if (!bloom.contains(h)) {
                        bloom.insert(h);
                    }
                }
            });
            variants.put("hash+insert", () -> {
                for (int i = 0; i < BATCH; i++) {
                    next(item, x);
                    bloom.insert(hasher.hash(item, 0, 12));
                }
            });
            variants.put("insert", () -> {
                for (int i = 0; i < BATCH; i++) {
                    next(item, x);
                    bloom.insert(Mix.mix64(x[0]));
                }
            });
            variants.put("hash", () -> {
                long s = 0;
                for (int i = 0; i < BATCH; i++) {
                    next(item, x);
                    s += hasher.hash(item, 0, 12);
                }
                sink += s;
            });
            // warm-up: every page of both tables touched, every variant compiled
            long t = System.nanoTime();
            while (x[0] < warmup) {
                variants.get("chain").run();
            }
            for (Runnable v : variants.values()) {
                for (int i = 0; i < 2000; i++) {
                    v.run();
                }
            }
            System.out.printf("warm-up: %.1f s%n", (System.nanoTime() - t) / 1e9);
            if (only != null) {
                variants.keySet().retainAll(only);
            }
            System.out.println("slices start");
            Thread.sleep(3000);
            Map<String, List<Double>> ns = new LinkedHashMap<>();
            for (int s = 0; s < slices; s++) {
                for (Map.Entry<String, Runnable> v : variants.entrySet()) {
                    long n = 0;
                    long c0 = CPU.getCurrentThreadCpuTime();
                    long w0 = System.nanoTime();
                    while (System.nanoTime() - w0 < slice) {
                        v.getValue().run();
                        n += BATCH;
                    }
                    ns.computeIfAbsent(v.getKey(), k -> new ArrayList<>())
                        .add((CPU.getCurrentThreadCpuTime() - c0) / (double)n);
                }
            }
            System.out.println("loadavg: " + Files.readString(Path.of("/proc/loadavg")).trim());
            System.out.println("| variant | CPU ns/add (median of " + slices + " slices) | min | max |");
            System.out.println("| --- | --- | --- | --- |");
            for (Map.Entry<String, List<Double>> e : ns.entrySet()) {
                List<Double> v = new ArrayList<>(e.getValue());
                v.sort(null);
                System.out.printf("| %s | %.1f | %.1f | %.1f |%n", e.getKey(), v.get(v.size() / 2), v.get(0),
                    v.get(v.size() - 1));
            }
            System.out.println("items in the chain at the end: " + chain.size() + " (sink " + (sink & 1) + ")");
        } finally {
            chain.close();
            table.close();
            Files.deleteIfExists(chainPath);
            Files.deleteIfExists(tablePath);
        }
    }

    /** The next 12-byte item: a mixed counter and its low bits, different on every call. */
    static void next(UnsafeBuffer item, long[] x) {
        long v = x[0]++;
        item.putLong(0, Mix.mix64(v));
        item.putInt(8, (int)v);
    }
}
