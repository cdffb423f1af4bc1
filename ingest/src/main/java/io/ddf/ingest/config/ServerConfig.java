package io.ddf.ingest.config;

import io.ddf.ingest.store.FilterBudget;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * Everything {@code ddf serve} can be told, with every default and every check of it: {@code ServeCommand}'s options
 * start from these fields' values (its help shows them), and {@link #validate()} (run by {@link DdfServer#start})
 * refuses a bad one with the option's name, whether the configuration came from the command line or an embedder.
 */
public final class ServerConfig
{
    /** Default RESP port: not Redis's 6379, so both can run on one machine. */
    public static final int DEFAULT_PORT = 7379;

    /** Address to listen on. */
    public String bind = "127.0.0.1";
    /** Plain RESP port; 0 picks a free one; -1 none (the command line's {@code --port 0} beside {@code --tls-port}). */
    public int port = DEFAULT_PORT;
    /** TLS RESP port, or -1 for none (the default); 0 picks a free one. Needs {@link #tls}. */
    public int tlsPort = -1;
    /** TLS certificate, key, CA and rules ({@code --tls-*}), or null when TLS is off. */
    public io.ddf.ingest.tls.TlsOptions tls;
    /** The TLS engine, or null for {@link io.ddf.ingest.tls.TlsContexts#preferredProvider()}. */
    public io.netty.handler.ssl.SslProvider tlsEngine;
    /**
     * New TLS handshakes admitted per second across the event loops ({@link io.ddf.ingest.tls.HandshakeGate}); 0
     * admits them all at once. Default: a flood of handshakes may take a small share of the event loops, not all.
     */
    public int tlsHandshakesPerSecond = 500;
    /** The raw feed speaks TLS ({@code --tls-feed yes}). */
    public boolean tlsFeed;
    /** The metrics endpoint speaks HTTPS ({@code --tls-metrics yes}). */
    public boolean tlsMetrics;
    /** Redis's ACL file ({@code --aclfile}), or null: then the one user is {@code default}. */
    public Path aclFile;
    /** Data directory. */
    public Path dataDir = Path.of("ddf-data");
    /** Password clients must give with AUTH, or null. */
    public String requirePass;
    /** Most RESP clients at once. */
    public int maxClients = 10_000;
    /** What {@link #maxFilters} is until set: derived from the descriptor limit ({@link #filterLimit()}). */
    public static final int DERIVED = -1;
    /**
     * Most filters open at once (each holds a file descriptor), or {@link #DERIVED}: the descriptor limit, less a
     * quarter of it up to {@link #maxClients} for connections, less 64 ({@link FilterBudget}).
     */
    public int maxFilters = DERIVED;
    /** Longest bulk string (argument) in bytes. */
    public int maxBulkBytes = 512 * 1024;
    /**
     * Redis's {@code proto-max-bulk-len}: the longest argument of the commands that take large ones (LOADCHUNK's
     * dump chunks), 512 MiB as Redis's default; every command stays within {@link #maxRequestBytes} and the input
     * budget.
     */
    public long protoMaxBulkLen = 512L * 1024 * 1024;
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
     * The capacity of a forgetting filter made by BF.ADD when {@link #defaultCapacity} is not set: it forgets nothing
     * within its first million items (it cannot grow, so it starts big: 1.4 MB at 0.01).
     */
    public static final long DEFAULT_CAPACITY = 1_000_000L;
    /** The first capacity of a scaling filter made by BF.ADD when {@link #defaultCapacity} is not set: RedisBloom's. */
    public static final long SCALING_DEFAULT_CAPACITY = 100;
    /** What {@link #defaultCapacity} is until set: the kind's own default ({@link #capacityOfMissingKeys}). */
    public static final long KIND_DEFAULT = 0;
    /**
     * Capacity of a filter BF.ADD makes for a missing key, or {@link #KIND_DEFAULT}: RedisBloom's 100 for a scaling
     * filter (it grows from there), {@link #DEFAULT_CAPACITY} for a forgetting one.
     */
    public long defaultCapacity = KIND_DEFAULT;
    /** Error rate of a filter made by BF.ADD on a missing key. */
    public double defaultErrorRate = 0.01;
    /**
     * A window of time for the filters BF.ADD, BF.MADD and BF.INSERT make on a missing key ({@code serve
     * --default-window}), or null: each such key is then a fifo-bloom of {@link #capacityOfMissingKeys}{@code (false)}
     * new items per window at {@link #defaultErrorRate}, remembering each item for the window after its first add
     * (BF.RESERVE's {@code WINDOW seconds}). The raw feed's filter too.
     */
    public java.time.Duration defaultWindow;
    /**
     * The wall clock of the filters with a window of time, or null for the engine's (a field a ticker refreshes every
     * 10 ms): tests only, no option.
     */
    public java.time.InstantSource clock;
    /**
     * What a Bloom or cuckoo filter made for a missing key without {@code KIND} does once it holds its capacity:
     * {@link PastCapacity#SCALE} (RedisBloom's semantics) by default.
     */
    public PastCapacity pastCapacity = PastCapacity.SCALE;
    /**
     * How a scaling Bloom filter made here is laid out: ddf's chain of blocked layers by default (RedisBloom's
     * capacities, error rates and answers to every command but the geometry BF.DEBUG and BF.INFO's Size report; one
     * cache line per layer per lookup), or RedisBloom's own ({@code --scaling-layout redisbloom}: its dumps load into
     * RedisBloom, BF.DEBUG gives RedisBloom's geometry, false positives fall where RedisBloom's do). A filter loaded
     * from a RedisBloom dump is RedisBloom's layout either way.
     */
    public io.ddf.ingest.store.ScalingRegistry.Layout scalingLayout =
        io.ddf.ingest.store.ScalingRegistry.Layout.DDF;
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

    /** {@code --checkpoint-seconds}'s default (docs/durability.md, "Through the change log": why 60). */
    public static final long DEFAULT_CHECKPOINT_SECONDS = 60;
    /** {@code --checkpoint-log-bytes}'s default: 1 GiB of log, 32 M records, bounds a replay (docs/durability.md). */
    public static final long DEFAULT_CHECKPOINT_LOG_BYTES = 1L << 30;

    /** Where RESP clients' elements are judged. */
    public Execution execution = DEFAULT_EXECUTION;
    /**
     * Default of {@link #ioThreads}: half the cores, at least one. With inline execution an event loop does all of a
     * command's work, and the clients, the kernel's network stack and the JIT need the rest. On this 2-core machine
     * one loop beat two with redis-benchmark on the other core: BF.ADD -P 16 1.64x SADD against 1.57x, p99 1.79 ms
     * against 4.47 ms, unpipelined the same ({@code ROUNDS=6 bench/daemon-vs-redis.sh ddf.jar
     * ddf.jar,--io-threads,1}, bench/results/daemon/2026-11-25-1059.md).
     */
    public static final int DEFAULT_IO_THREADS = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    /** Event loop threads. */
    public int ioThreads = DEFAULT_IO_THREADS;
    /**
     * Default of {@link #ioSpinMicros}: none, as Redis. Polling takes a core from the clients where they share the
     * machine's cores with the daemon, as on this 2-core machine (bench/README.md, "fsync vs Redis", 2026-11-30).
     */
    public static final long DEFAULT_IO_SPIN_MICROS = 0;
    /**
     * How long an event loop polls its sockets after its last event before it blocks in {@code epoll_wait}
     * ({@code --io-spin-micros}); 0 blocks at once (Netty's own wait). Epoll only: NIO always blocks, and io_uring
     * refuses it (its wait is not a select strategy).
     */
    public long ioSpinMicros = DEFAULT_IO_SPIN_MICROS;
    /** The event loops' transport ({@code --io-transport}); {@link IoTransport#AUTO} by default. */
    public IoTransport ioTransport = IoTransport.AUTO;
    /** Raw feed port, or -1 for none; 0 picks a free one. */
    public int feedPort = -1;
    /** Raw feed framing. */
    public FeedFormat feedFormat = FeedFormat.LINES;
    /** The filter the raw feed judges against. */
    public String feedFilter = "feed";
    /**
     * Cores up to which {@code --feed-mode auto} judges the raw feed inline: measured on this 2-core machine, where
     * the event loop, the ring's handler and the client share the cores (bench/README.md, "The raw feed inline").
     * Above it the ring, which gives the feed a thread of its own where there are cores to spare (not measured here).
     */
    public static final int FEED_INLINE_MAX_PROCESSORS = 2;
    /** Where the raw feed's records are judged ({@code --feed-mode}). */
    public FeedMode feedMode = FeedMode.AUTO;
    /** Where the feed forwards unseen records instead of answering verdicts, or null. */
    public InetSocketAddress forward;
    /** Prometheus endpoint port, or -1 for none (the default); 0 picks a free one. */
    public int metricsPort = -1;
    /** Address the Prometheus endpoint listens on: loopback unless asked, as metrics name every key. */
    public String metricsBind = "127.0.0.1";
    /**
     * When the filters' changes reach the disk ({@code --fsync}): everysec by default, as Redis's {@code appendfsync}
     * (a power cut loses at most the last two seconds, for a cost the commands do not see; README, "What survives a
     * power cut").
     */
    public io.ddf.engine.SyncPolicy fsync = io.ddf.engine.SyncPolicy.DEFAULT;
    /** How long a sync may take before the daemon logs it and counts it in INFO's fsync_delayed. */
    public long fsyncWarnMillis = 1000;
    /**
     * Seconds between two checkpoints of the filters written through the data directory's change log
     * ({@code --checkpoint-seconds}); docs/durability.md says why the default.
     */
    public long checkpointSeconds = DEFAULT_CHECKPOINT_SECONDS;
    /**
     * Bytes of change log since the oldest checkpoint that start the next checkpoint early
     * ({@code --checkpoint-log-bytes}).
     */
    public long checkpointLogBytes = DEFAULT_CHECKPOINT_LOG_BYTES;
    /**
     * Where the filter tables are mapped ({@code --live-dir}): null for the default (a copy on /dev/shm when it
     * suits, LiveTables), {@code none} (in place), or a directory.
     */
    public String liveDir;
    /** Bytes of record space in each segment file of the change log (tests make it small; no option). */
    public long logSegmentBytes = io.ddf.persistence.log.LogOptions.DEFAULT_SEGMENT_BYTES;

    /**
     * @param scaling whether for a scaling filter.
     * @return {@link #defaultCapacity}, or the kind's default when it is {@link #KIND_DEFAULT}.
     */
    public long capacityOfMissingKeys(final boolean scaling)
    {
        return defaultCapacity != KIND_DEFAULT ? defaultCapacity : scaling ? SCALING_DEFAULT_CAPACITY :
            DEFAULT_CAPACITY;
    }

    /** @return {@link #maxFilters}, or the limit derived from the descriptor limit when it is {@link #DERIVED}. */
    public int filterLimit()
    {
        return maxFilters != DERIVED ? maxFilters :
            FilterBudget.defaultMaxFilters(FilterBudget.descriptorLimit(), maxClients);
    }

    /**
     * Every check of the configuration, each naming the option it is about.
     *
     * @return this.
     * @throws IllegalArgumentException for the first value that cannot be served.
     */
    public ServerConfig validate()
    {
        atLeast(authTimeoutSeconds, 0, "--auth-timeout");
        if (port < 0 && tlsPort < 0)
        {
            throw new IllegalArgumentException("--port 0 turns the plain port off: give --tls-port P too");
        }
        if (tls == null && (tlsPort >= 0 || tlsFeed || tlsMetrics))
        {
            throw new IllegalArgumentException("--tls-port, --tls-feed and --tls-metrics need --tls-cert-file and " +
                "--tls-key-file");
        }
        atLeast(tlsHandshakesPerSecond, 0, "--tls-handshakes-per-second");
        atLeast(maxRequestBytes, 1, "--max-request-bytes");
        atLeast(maxInputBytes, 1, "--max-input-bytes");
        if (maxInputBytes < maxRequestBytes)
        {
            throw new IllegalArgumentException("--max-input-bytes (" + maxInputBytes + ") must be at least " +
                "--max-request-bytes (" + maxRequestBytes + "), or no command of that size could ever be read");
        }
        atLeast(maxClients, 1, "--max-clients");
        if (maxFilters != DERIVED)
        {
            atLeast(maxFilters, 1, "--max-filters");
        }
        atLeast(maxBulkBytes, 1, "--max-bulk-bytes");
        atLeast(protoMaxBulkLen, 1, "--proto-max-bulk-len");
        atLeast(maxItemBytes, 1, "--max-item-bytes");
        atLeast(clientOutputLimit, 1, "--client-output-limit");
        atLeast(idleTimeoutSeconds, 0, "--idle-timeout");
        atLeast(ringSize, 1, "--ring-size");
        if (Integer.bitCount(ringSize) != 1)
        {
            throw new IllegalArgumentException("--ring-size must be a power of two, got " + ringSize);
        }
        atLeast(ioThreads, 1, "--io-threads");
        atLeast(ioSpinMicros, 0, "--io-spin-micros");
        if (metricsPort < -1 || metricsPort > 65535)
        {
            throw new IllegalArgumentException("--metrics-port must be 0 to 65535, got " + metricsPort);
        }
        if (forward != null && feedPort < 0)
        {
            throw new IllegalArgumentException("--forward needs --feed-port");
        }
        if (requirePass == null && feedPort >= 0 && !loopback(bind))
        {
            throw new IllegalArgumentException("the raw feed on " + bind + " would take records from " +
                "anyone who can reach it: set a password (--requirepass-file or DDF_REQUIREPASS) or bind to a " +
                "loopback address");
        }
        atLeast(defaultCapacity, 0, "--default-capacity");
        if (defaultWindow != null && (defaultWindow.isNegative() || defaultWindow.isZero()))
        {
            throw new IllegalArgumentException("--default-window must be a positive time (90s, 15m, 24h, 7d), got " +
                defaultWindow);
        }
        atLeast(fsyncWarnMillis, 1, "--fsync-warn-ms");
        atLeast(checkpointSeconds, 1, "--checkpoint-seconds");
        atLeast(checkpointLogBytes, 1L << 20, "--checkpoint-log-bytes");
        // a bad default capacity or error rate is refused now, not at the first BF.ADD on a missing key
        defaultFilter().parameters();
        return this;
    }

    private static void atLeast(final long value, final long least, final String option)
    {
        if (value < least)
        {
            throw new IllegalArgumentException(option + " must be " + (least == 0 ? "0 or more" :
                "at least " + least) + ", got " + value);
        }
    }

    private static boolean loopback(final String address)
    {
        try
        {
            return java.net.InetAddress.getByName(address).isLoopbackAddress();
        }
        catch (final java.net.UnknownHostException e)
        {
            return false;
        }
    }

    /**
     * Which of Netty's transports the event loops run ({@code serve --io-transport}): the kernel interface through
     * which the daemon receives and sends (issue 31, bench/README.md "io_uring").
     */
    public enum IoTransport
    {
        /**
         * io_uring where the kernel has it and no spell of polling is asked ({@link ServerConfig#ioSpinMicros} is
         * epoll's), else epoll, else NIO: the measured choice (bench/README.md, "io_uring").
         */
        AUTO,
        /**
         * io_uring: each event loop round's receives and sends are queued and handed to the kernel in one
         * {@code io_uring_enter}, where epoll costs a system call per receive and per send. A recent Linux
         * kernel: Netty checks it at start.
         */
        IO_URING,
        /** Edge-triggered epoll, a system call per receive and per send; Linux only. */
        EPOLL,
        /** The JDK's selector: anywhere. */
        NIO
    }

    /** Where the elements of BF.* and CF.* commands are judged ({@code serve --execution}). */
    public enum Execution
    {
        /** On the event loop that decoded the command, which calls the filter itself ({@link VerdictRing#submit}). */
        INLINE,
        /** Copied into the Disruptor pipeline, judged on its thread, the verdicts handed back to the event loop. */
        PIPELINE
    }

    /** What a filter made without {@code KIND} does once it holds its capacity ({@code serve --past-capacity}). */
    public enum PastCapacity
    {
        /** Grows a layer, as RedisBloom (NONSCALING refuses instead): the scaling filters. */
        SCALE,
        /** Forgets its oldest items in fixed memory: ddf's fifo-bloom and streaming cuckoo filter. */
        FORGET
    }

    /** Where the raw feed's records are judged ({@code serve --feed-mode}). */
    public enum FeedMode
    {
        /** By the event loop that read them, as inline execution judges BF.MADD's items. */
        INLINE,
        /** Through the Disruptor ring, on the pipeline's thread, the verdicts handed back to the event loop. */
        RING,
        /** Inline on up to {@link #FEED_INLINE_MAX_PROCESSORS} cores, the ring above. */
        AUTO
    }

    /**
     * @return whether the raw feed is judged inline: {@code --feed-mode}, {@code auto} resolved by the cores the
     *         JVM sees.
     */
    public boolean feedInline()
    {
        return feedMode == FeedMode.INLINE || feedMode == FeedMode.AUTO &&
            Runtime.getRuntime().availableProcessors() <= FEED_INLINE_MAX_PROCESSORS;
    }

    /** How the raw feed frames records. */
    public enum FeedFormat
    {
        /** Newline-delimited records ({@code \n} or {@code \r\n}, stripped). */
        LINES,
        /** A 4-byte big-endian length, then that many bytes. */
        FRAMES
    }

    /**
     * @return the fixed-size filter a missing key gets under {@code --past-capacity forget} or {@code
     *         --default-window} (and the raw feed's, and BF.RESERVE's without options under {@code --past-capacity
     *         forget}): the tuner's {@link io.ddf.engine.tune.Tuner#forCapacity} for the default capacity and error
     *         rate, or with a {@link #defaultWindow} a fifo-bloom of that capacity and error rate with that window.
     */
    public io.ddf.engine.FilterBuilder defaultFilter()
    {
        if (defaultWindow != null)
        {
            return io.ddf.engine.Filters.builder(io.ddf.engine.FilterKind.FIFO_BLOOM)
                .param("capacity", capacityOfMissingKeys(false)).param("target-fpr", defaultErrorRate)
                .window(defaultWindow);
        }
        return io.ddf.engine.tune.Tuner.forCapacity(capacityOfMissingKeys(false), defaultErrorRate).builder();
    }

    /** @return whether BF.ADD, BF.MADD and BF.INSERT make a filter that grows for a missing key. */
    public boolean missingBloomKeysGrow()
    {
        return pastCapacity == PastCapacity.SCALE && defaultWindow == null;
    }
}
