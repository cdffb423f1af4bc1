package io.ddf.ingest.server;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/** Everything {@code ddf serve} can be told; the defaults are the command line's. */
public final class ServerConfig
{
    /** Default RESP port: not Redis's 6379, so both can run on one machine. */
    public static final int DEFAULT_PORT = 7379;

    /** Address to listen on. */
    public String bind = "127.0.0.1";
    /** RESP port; 0 picks a free one. */
    public int port = DEFAULT_PORT;
    /** Data directory. */
    public Path dataDir = Path.of("ddf-data");
    /** Password clients must give with AUTH, or null. */
    public String requirePass;
    /** Most RESP clients at once. */
    public int maxClients = 10_000;
    /** Most filters open at once (each holds a file descriptor); see {@link FilterBudget}. */
    public int maxFilters = Integer.MAX_VALUE;
    /**
     * Longest bulk string (argument) in bytes: 32 MiB, so RedisBloom's dump chunks (16 MiB at most) and ddf's load
     * (Redis's own limit is 512 MB; the floods this bounds are bounded across connections by maxInputBytes).
     */
    public int maxBulkBytes = 32 * 1024 * 1024;
    /** Most arguments in one command. */
    public int maxArgs = 1024 * 1024;
    /** Most bytes of arguments in one command. */
    public long maxRequestBytes = 64L * 1024 * 1024;
    /** Most bytes of unfinished commands buffered across all connections; see {@link InputBudget}. */
    public long maxInputBytes = 128L * 1024 * 1024;
    /** Close a connection that has not authenticated (when a password is set) after this many seconds; 0 never. */
    public int authTimeoutSeconds = 10;
    /** Longest line: an inline command, or the length of an array or bulk string (no option: Redis's 64 KiB). */
    public int maxInlineBytes = 64 * 1024;
    /** Longest element (item or feed record): each ring slot holds this many bytes. */
    public int maxItemBytes = 4096;
    /** Disconnect a client whose unsent replies exceed this many bytes. */
    public int clientOutputLimit = 64 * 1024 * 1024;
    /** Close a RESP connection idle this many seconds; 0 never. */
    public int idleTimeoutSeconds;
    /**
     * Default of {@link #defaultCapacity}: a key made by BF.ADD forgets nothing within its first million items
     * (RedisBloom starts at 100 and grows; a ddf filter cannot grow, so it starts big: 1.4 MB at 0.01).
     */
    public static final long DEFAULT_CAPACITY = 1_000_000L;
    /** Capacity of a filter made by BF.ADD on a missing key. */
    public long defaultCapacity = DEFAULT_CAPACITY;
    /** Whether {@link #defaultCapacity} was given; if not, a scaling filter starts at RedisBloom's 100 items. */
    public boolean defaultCapacityGiven;
    /** RedisBloom's first capacity of a filter BF.ADD makes: it grows from there. */
    public static final long SCALING_DEFAULT_CAPACITY = 100;

    /** What a Bloom filter made for a missing key does once it holds its capacity. */
    public enum PastCapacity
    {
        /** Grows a layer, as RedisBloom (BF.RESERVE's NONSCALING refuses instead): ddf's scaling chain. */
        SCALE,
        /** Forgets its oldest items in fixed memory: ddf's fifo-bloom. */
        FORGET
    }

    /** What BF.RESERVE, BF.ADD and BF.INSERT make for a missing key (a KIND given makes that kind). */
    public PastCapacity pastCapacity = PastCapacity.SCALE;
    /**
     * Whether a scaling filter made here is laid out and hashed as RedisBloom's (true: every answer, false positives
     * included, is RedisBloom's, and its dumps load into RedisBloom) or as ddf's own chain (false).
     */
    public boolean redisBloomLayout = true;
    /** Error rate of a filter made by BF.ADD on a missing key. */
    public double defaultErrorRate = 0.01;
    /** Pipeline ring slots, a power of two. */
    public int ringSize = 4096;
    /**
     * Pipeline wait strategy, or null for the pipeline's default ({@code phased}). The daemon blocks: its event
     * loops, the pipeline's handler and the clients share the cores, and a handler spinning between a client's
     * batches takes the time the event loops need (bench/results/daemon/2026-11-25-0747.md: BF.ADD -P 16 at 0.69×
     * SADD blocking against 0.48× phased in the same run, three rounds out of three).
     */
    public String waitStrategy = "blocking";
    /**
     * Default of {@link #execution}: inline, because it beat the pipeline on both of issue 11's daemon figures in
     * each of three runs of {@code ROUNDS=6 bench/daemon-vs-redis.sh MAIN.jar ddf.jar,--execution,inline
     * ddf.jar,--execution,inline,--io-threads,1} (bench/results/daemon/2026-11-25-1028.md at load 5.6, -1040 with
     * {@code ddf.jar,--execution,pipeline} too, -1045 at load 0.7-1.9): BF.ADD -P 16 at 1.40x / 1.46x / 1.53x
     * SADD inline against 1.17x / 1.12x / 1.22x through the pipeline, -c 50 at p50 0.419 / 0.291 / 0.279 ms against
     * 0.583 / 0.411 / 0.435 ms (p99 with two event loops 3.98 / 2.09 / 0.77 ms against 3.93 / 1.59 / 1.46: not a
     * clear win; with {@code --io-threads 1} 1.50 / 0.74 / 0.70 ms). On two cores the pipeline's thread shares a
     * core with the event loops, so its hand-offs (the ring's sequencer, the blocking wait's signal, the router's
     * wake-up of the event loop) cost more than they spread.
     */
    public static final Execution DEFAULT_EXECUTION = Execution.INLINE;

    /** Where RESP clients' elements are judged. */
    public Execution execution = DEFAULT_EXECUTION;
    /** Event loop threads. */
    public int ioThreads = 2;
    /** Raw feed port, or -1 for none; 0 picks a free one. */
    public int feedPort = -1;
    /** Raw feed framing. */
    public FeedFormat feedFormat = FeedFormat.LINES;
    /** The filter the raw feed judges against. */
    public String feedFilter = "feed";
    /** Where the feed forwards unseen records instead of answering verdicts, or null. */
    public InetSocketAddress forward;
    /** Prometheus endpoint port, or -1 for none (the default); 0 picks a free one. */
    public int metricsPort = -1;
    /** Address the Prometheus endpoint listens on: loopback unless asked, as metrics name every key. */
    public String metricsBind = "127.0.0.1";

    /** Where the elements of BF.* and CF.* commands are judged ({@code serve --execution}). */
    public enum Execution
    {
        /** On the event loop that decoded the command, which calls the filter itself ({@link InlineExecution}). */
        INLINE,
        /** Copied into the Disruptor pipeline, judged on its thread, the verdicts handed back to the event loop. */
        PIPELINE
    }

    /** How the raw feed frames records. */
    public enum FeedFormat
    {
        /** Newline-delimited records ({@code \n} or {@code \r\n}, stripped). */
        LINES,
        /** A 4-byte big-endian length, then that many bytes. */
        FRAMES
    }
}
