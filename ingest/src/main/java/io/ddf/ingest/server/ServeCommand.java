package io.ddf.ingest.server;

import io.ddf.ingest.config.SecurityOptions;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.config.SyncPolicyConverter;
import io.ddf.ingest.security.PasswordSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ddf serve}: the daemon. The description names each command family once, its commands after it: picocli may
 * wrap a line after a '.', which would split a full name such as BF.RESERVE in two.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Serve named filters over RESP2 and RESP3 (HELLO 3); redis-cli, redis-benchmark and Redis " +
        "clients work. RedisBloom's BF.* commands (RESERVE, ADD, MADD, EXISTS, MEXISTS, INSERT, INFO, CARD, DEBUG, " +
        "SCANDUMP, LOADCHUNK) and CF.* commands (RESERVE, ADD, ADDNX, INSERT, INSERTNX, EXISTS, MEXISTS, DEL, COUNT, " +
        "INFO, DEBUG, COMPACT, SCANDUMP, LOADCHUNK) with RedisBloom's semantics and dumps, with Redis's key, " +
        "connection and server commands (DEL, KEYS, SCAN, TYPE, FLUSHALL, MULTI/EXEC, PING, INFO, MODULE LIST, ...): " +
        "COMMAND DOCS on a running daemon lists every command with its arguments. Each filter is a file <key>.ddf " +
        "(<key>.ddfs for one that grows) in the data directory and survives restarts; SIGTERM drains, flushes and " +
        "exits 0.",
        "Optionally a raw feed on its own port: records judged in order, one verdict byte (U or D) back per " +
        "record, or with --forward only the unseen records sent on."},
    footer = {"Default port 7379 (not Redis's 6379, so both can run on one machine); default address 127.0.0.1.",
        "A filter made by BF.RESERVE without KIND, or by BF.ADD on a missing key, scales as RedisBloom's (a layer " +
            "of EXPANSION times the capacity at half the error rate once full; NONSCALING refuses instead), as " +
            "ddf's chain of blocked layers (--scaling-layout); CF.* make RedisBloom's cuckoo filter.",
        "With --past-capacity forget they are ddf's forgetting filters instead: a fifo-bloom of --default-capacity " +
            "and --default-error-rate, which forgets the oldest past its capacity in fixed memory, and the " +
            "streaming cuckoo filter; BF.EXISTS then answers 0 for an element forgotten. BF.RESERVE's KIND chooses " +
            "per key: fifo-bloom (forgets), scaling (ddf's chain), redisbloom (RedisBloom's layout).",
        "Windows of time: BF.RESERVE key error_rate capacity WINDOW seconds [SLICES L] makes a fifo-bloom that " +
            "remembers each item for the window after its first add (while at most capacity new items come within " +
            "a window) and forgets it by window + window / L; every BF.* command works on it, and APBF.RESERVE, " +
            "APBF.ADD, APBF.INSERT, APBF.EXISTS and APBF.INFO (RedisBloom's age-partitioned proposal) make and use " +
            "the same. --default-window gives one to the keys BF.ADD makes."})
public final class ServeCommand implements Callable<Integer>
{
    /** Exit status when the daemon could not start (a failure while running, as ErrorHandling's). */
    private static final int STARTUP_FAILED = 1;

    @Spec
    private CommandSpec spec;

    /** Every default an option shows and starts from: the configuration's own. */
    private static final ServerConfig DEFAULTS = new ServerConfig();

    @Mixin
    private SecurityOptions security = new SecurityOptions();

    @Option(names = "--port", paramLabel = "P", description = "RESP port (default ${DEFAULT-VALUE}; 0 with " +
        "--tls-port: no plain port, as in Redis; 0 alone picks a free one).")
    private int port = DEFAULTS.port;

    @Option(names = "--bind", paramLabel = "ADDR", description = "Address to listen on (default ${DEFAULT-VALUE}).")
    private String bind = DEFAULTS.bind;

    @Option(names = "--data-dir", paramLabel = "DIR", description = "Where the filters live (default ./${DEFAULT-VALUE}).")
    private Path dataDir = DEFAULTS.dataDir;

    @Option(names = "--requirepass", paramLabel = "SECRET", description = "Clients must AUTH with this password " +
        "(visible in the process list: prefer --requirepass-file or the DDF_REQUIREPASS environment variable).")
    private String requirePass;

    @Option(names = "--requirepass-file", paramLabel = "FILE",
        description = "Clients must AUTH with the password this file holds (one trailing newline ignored).")
    private Path requirePassFile;

    @Option(names = "--auth-timeout", paramLabel = "SECONDS", description = "With a password, close a connection " +
        "that has not authenticated this long (default ${DEFAULT-VALUE}; 0 never).")
    private int authTimeout = DEFAULTS.authTimeoutSeconds;

    @Option(names = "--max-request-bytes", paramLabel = "N", description = "Most bytes of arguments in one command " +
        "(default ${DEFAULT-VALUE}); more gets an error and a close.")
    private long maxRequestBytes = DEFAULTS.maxRequestBytes;

    @Option(names = "--max-input-bytes", paramLabel = "N", description = "Most bytes of unfinished commands " +
        "buffered across all connections (default ${DEFAULT-VALUE}); past it the connection holding the most gets " +
        "an error and is closed.")
    private long maxInputBytes = DEFAULTS.maxInputBytes;

    @Option(names = "--max-clients", paramLabel = "N",
        description = "Most RESP clients at once (default ${DEFAULT-VALUE}).")
    private int maxClients = DEFAULTS.maxClients;

    @Option(names = "--max-filters", paramLabel = "N", description = "Most filters at once; each holds a file " +
        "descriptor (default: the descriptor limit, less a quarter of it up to --max-clients for connections, " +
        "less 64).")
    private int maxFilters = DEFAULTS.maxFilters;

    @Option(names = "--max-bulk-bytes", paramLabel = "N",
        description = "Longest command argument (default ${DEFAULT-VALUE}); longer closes the connection.")
    private int maxBulkBytes = DEFAULTS.maxBulkBytes;

    @Option(names = "--proto-max-bulk-len", paramLabel = "N", description = "Longest argument of the commands " +
        "that take large ones, LOADCHUNK's dump chunks (default ${DEFAULT-VALUE}, Redis's); within " +
        "--max-request-bytes.")
    private long protoMaxBulkLen = DEFAULTS.protoMaxBulkLen;

    @Option(names = "--max-item-bytes", paramLabel = "N", description = "Longest item or feed record " +
        "(default ${DEFAULT-VALUE}; each ring slot holds this many bytes).")
    private int maxItemBytes = DEFAULTS.maxItemBytes;

    @Option(names = "--client-output-limit", paramLabel = "BYTES",
        description = "Disconnect a client whose unsent replies exceed this (default ${DEFAULT-VALUE}).")
    private int clientOutputLimit = DEFAULTS.clientOutputLimit;

    @Option(names = "--idle-timeout", paramLabel = "SECONDS",
        description = "Close RESP connections idle this long (default ${DEFAULT-VALUE}: never).")
    private int idleTimeout = DEFAULTS.idleTimeoutSeconds;

    @Option(names = "--default-capacity", paramLabel = "N", description = "Capacity of a filter BF.ADD makes for " +
        "a missing key (default: RedisBloom's 100 for a scaling filter, which grows from there; 1000000 with " +
        "--past-capacity forget: 1.4 MB at 0.01).")
    private long defaultCapacity = DEFAULTS.defaultCapacity;

    @Option(names = "--past-capacity", paramLabel = "scale|forget", converter = PastCapacityConverter.class,
        description = "What a filter made without KIND does once full: scale (default: grows a layer, as " +
            "RedisBloom; NONSCALING refuses) or forget (ddf's fifo-bloom and streaming cuckoo filter: fixed " +
            "memory, the oldest items forgotten).")
    private ServerConfig.PastCapacity pastCapacity = DEFAULTS.pastCapacity;

    @Option(names = "--scaling-layout", paramLabel = "redisbloom|ddf", converter = LayoutConverter.class,
        description = "How a scaling Bloom filter is laid out: ddf (default: ddf's chain of blocked layers, one " +
            "cache line per layer per lookup) or redisbloom (RedisBloom's own bits: its dumps load into RedisBloom, " +
            "BF.DEBUG gives RedisBloom's geometry).")
    private io.ddf.ingest.store.ScalingRegistry.Layout scalingLayout = DEFAULTS.scalingLayout;

    @Option(names = "--default-error-rate", paramLabel = "X",
        description = "Error rate of a filter BF.ADD makes for a missing key (default ${DEFAULT-VALUE}).")
    private double defaultErrorRate = DEFAULTS.defaultErrorRate;

    @Option(names = "--default-window", paramLabel = "TIME", converter = WindowConverter.class,
        description = "A window of time for the filters BF.ADD, BF.MADD and BF.INSERT make on a missing key " +
            "(seconds, or 90s, 15m, 24h, 7d): each a fifo-bloom that remembers an item for TIME after its first " +
            "add while at most --default-capacity new items come within TIME (default: none; BF.RESERVE's " +
            "WINDOW seconds chooses per key).")
    private java.time.Duration defaultWindow;

    @Option(names = "--ring-size", paramLabel = "N",
        description = "Pipeline ring slots, a power of two (default ${DEFAULT-VALUE}).")
    private int ringSize = DEFAULTS.ringSize;

    @Option(names = "--wait-strategy", paramLabel = "S", description = "Pipeline handlers' wait: blocking, phased, " +
        "sleeping, yielding, busy-spin (default ${DEFAULT-VALUE}).")
    private String waitStrategy = DEFAULTS.waitStrategy;

    @Option(names = "--io-threads", paramLabel = "N",
        description = "Network event loop threads (default: half the cores, at least 1; here ${DEFAULT-VALUE}).")
    private int ioThreads = DEFAULTS.ioThreads;

    @Option(names = "--io-spin-micros", paramLabel = "US",
        description = "How long an event loop polls its sockets after its last event before it sleeps in epoll_wait " +
            "(default ${DEFAULT-VALUE}; 0 sleeps at once). Polling spares unpipelined clients the loop's wake-up.")
    private long ioSpinMicros = DEFAULTS.ioSpinMicros;

    @Option(names = "--io-transport", paramLabel = "T", converter = IoTransportConverter.class,
        description = "The event loops' kernel interface: auto (default: io_uring where the kernel has it and " +
            "--io-spin-micros is 0, else epoll, else nio), " +
            "io_uring (a loop round's receives and sends in one io_uring_enter), epoll or nio. An explicit choice " +
            "this machine lacks is refused.")
    private ServerConfig.IoTransport ioTransport = DEFAULTS.ioTransport;

    @Option(names = "--execution", paramLabel = "WHERE", converter = ExecutionConverter.class,
        description = "Where BF.*/CF.* elements are judged: inline (default: by the event loop that read the " +
            "command, as Redis does) or pipeline (copied into the Disruptor ring, judged on its thread, the " +
            "verdicts handed back). The raw feed has its own: --feed-mode.")
    private ServerConfig.Execution execution = DEFAULTS.execution;

    @Option(names = "--feed-port", paramLabel = "P", description = "Raw feed port (default: no raw feed).")
    private int feedPort = DEFAULTS.feedPort;

    @Option(names = "--feed-format", paramLabel = "F", converter = FormatConverter.class, description = "lines " +
        "(newline-delimited) or frames (4-byte big-endian length, then the bytes); default lines.")
    private ServerConfig.FeedFormat feedFormat = DEFAULTS.feedFormat;

    @Option(names = "--feed-mode", paramLabel = "MODE", converter = FeedModeConverter.class, description = "Where " +
        "the raw feed's records are judged: inline (by the event loop that read them), ring (through the Disruptor " +
        "ring, on the pipeline's thread) or auto (the default: inline on up to " +
        ServerConfig.FEED_INLINE_MAX_PROCESSORS + " cores, where it measured faster; the ring above).")
    private ServerConfig.FeedMode feedMode = DEFAULTS.feedMode;

    @Option(names = "--feed-filter", paramLabel = "NAME", description = "Filter the raw feed judges against, made " +
        "with the defaults if missing (default ${DEFAULT-VALUE}).")
    private String feedFilter = DEFAULTS.feedFilter;

    @Option(names = "--metrics-port", paramLabel = "P",
        description = "Serve Prometheus metrics on http://ADDR:P/metrics (default: none; 0 picks a free port).")
    private int metricsPort = DEFAULTS.metricsPort;

    @Option(names = "--metrics-bind", paramLabel = "ADDR",
        description = "Address the metrics endpoint listens on (default ${DEFAULT-VALUE}).")
    private String metricsBind = DEFAULTS.metricsBind;

    @Option(names = "--fsync", paramLabel = "POLICY", converter = SyncPolicyConverter.class,
        description = "When changes reach the disk, as Redis's appendfsync, through the data directory's change " +
            "log (<dir>/log/): always (a reply that acknowledges a write leaves once its record is on the disk; the " +
            "writes of many replies share one force), everysec (the log forced once a second, off the event loops; " +
            "a power cut loses at most the last two seconds; the default) or no (no log: a power cut loses what " +
            "changed since the last checkpoint of the live tables, --checkpoint-seconds; in place, --live-dir none, " +
            "the kernel's writeback, ~30 s). A process crash loses nothing under any of them.")
    private io.ddf.engine.SyncPolicy fsync = DEFAULTS.fsync;

    @Option(names = "--fsync-warn-ms", paramLabel = "MS", description = "A sync taking longer is logged and " +
        "counted in INFO persistence's fsync_delayed (default: ${DEFAULT-VALUE}).")
    private long fsyncWarnMillis = DEFAULTS.fsyncWarnMillis;

    @Option(names = "--checkpoint-seconds", paramLabel = "S", description = "Each changed filter's pages are " +
        "forced and the change log before them dropped this often (default: ${DEFAULT-VALUE}; a restart after a " +
        "power cut replays at most this long of writes; under --fsync no, with no log, a power cut loses at most " +
        "this long of writes and the checkpoint's own time).")
    private long checkpointSeconds = DEFAULTS.checkpointSeconds;

    @Option(names = "--checkpoint-log-bytes", paramLabel = "BYTES", description = "A checkpoint starts early once " +
        "the change log since the oldest checkpoint is this long (default: ${DEFAULT-VALUE}, 32 M records).")
    private long checkpointLogBytes = DEFAULTS.checkpointLogBytes;

    @Option(names = "--live-dir", paramLabel = "DIR|none", description = "Where the filter tables are mapped: a " +
        "copy on this tmpfs, the data directory's files written at checkpoints only (default: /dev/shm when the data " +
        "directory is on a disk and /dev/shm a tmpfs with room, under every --fsync; else none: in place).")
    private String liveDir;

    @Option(names = "--forward", paramLabel = "HOST:PORT", converter = AddressConverter.class,
        description = "Send the feed's unseen records there (same framing) instead of verdicts.")
    private InetSocketAddress forward;

    /**
     * @return the configuration these options give, checked ({@link ServerConfig#validate}).
     * @throws IllegalArgumentException naming the option whose value cannot be served.
     */
    public ServerConfig config()
    {
        final ServerConfig config = new ServerConfig();
        security.applyTo(config);
        // Redis's --port 0 beside --tls-port: no plain port; alone it still picks a free one (a daemon listening
        // nowhere would be no use, and the tests and scripts start daemons so)
        config.port = port == 0 && config.tlsPort >= 0 ? -1 : port;
        config.bind = bind;
        config.dataDir = dataDir;
        config.requirePass = PasswordSource.resolve(requirePass, requirePassFile, System.getenv(), System.err::println);
        config.authTimeoutSeconds = authTimeout;
        config.maxRequestBytes = maxRequestBytes;
        config.maxInputBytes = maxInputBytes;
        config.maxClients = maxClients;
        config.maxFilters = maxFilters;
        config.maxBulkBytes = maxBulkBytes;
        config.protoMaxBulkLen = protoMaxBulkLen;
        config.maxItemBytes = maxItemBytes;
        config.clientOutputLimit = clientOutputLimit;
        config.idleTimeoutSeconds = idleTimeout;
        config.defaultCapacity = defaultCapacity;
        config.defaultErrorRate = defaultErrorRate;
        config.defaultWindow = defaultWindow;
        config.pastCapacity = pastCapacity;
        config.scalingLayout = scalingLayout;
        config.ringSize = ringSize;
        config.waitStrategy = waitStrategy;
        config.ioThreads = ioThreads;
        config.ioSpinMicros = ioSpinMicros;
        config.ioTransport = ioTransport;
        config.execution = execution;
        config.fsync = fsync;
        config.fsyncWarnMillis = fsyncWarnMillis;
        config.checkpointSeconds = checkpointSeconds;
        config.checkpointLogBytes = checkpointLogBytes;
        config.liveDir = liveDir;
        config.feedPort = feedPort;
        config.feedFormat = feedFormat;
        config.feedMode = feedMode;
        config.feedFilter = new String(feedFilter.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        config.forward = forward;
        config.metricsPort = metricsPort;
        config.metricsBind = metricsBind;
        return config.validate();
    }

    /**
     * Runs the daemon until SIGTERM or SIGINT; the shutdown hook drains, flushes, closes and exits 0.
     *
     * @return never returns normally while serving; 0 once closed.
     */
    @Override
    public Integer call()
    {
        final PrintStream log = System.err;
        final ServerConfig config = config();
        final DdfServer server;
        try
        {
            server = DdfServer.start(config, log);
        }
        catch (final IllegalArgumentException e)
        {
            throw e;
        }
        catch (final RuntimeException e)
        {
            // a port in use or a data directory that cannot be used: one sentence, not an exception's class name
            spec.commandLine().getErr().println("ddf: " + StartupFailure.sentence(e, config));
            spec.commandLine().getErr().flush();
            return STARTUP_FAILED;
        }
        final Thread hook = new Thread(() ->
        {
            server.close();
            log.println("ddf: stopped; every filter flushed and closed");
            log.flush();
            // the JVM would exit 143 after a SIGTERM; the daemon stopped cleanly, so say so
            Runtime.getRuntime().halt(0);
        }, "ddf-serve-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        server.awaitClosed();
        return 0;
    }

    /**
     * An option naming one of an enum's constants in lower case; the error lists them ("expected lines or frames").
     *
     * @param <E> the enum.
     */
    abstract static class LowerCaseEnumConverter<E extends Enum<E>> implements ITypeConverter<E>
    {
        private final Class<E> type;

        LowerCaseEnumConverter(final Class<E> type)
        {
            this.type = type;
        }

        @Override
        public E convert(final String value)
        {
            try
            {
                return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
            }
            catch (final IllegalArgumentException e)
            {
                final String names = java.util.Arrays.stream(type.getEnumConstants())
                    .map(c -> c.name().toLowerCase(Locale.ROOT)).collect(java.util.stream.Collectors.joining(" or "));
                throw new TypeConversionException("expected " + names + ", got '" + value + "'");
            }
        }
    }

    /** lines | frames. */
    static final class FormatConverter extends LowerCaseEnumConverter<ServerConfig.FeedFormat>
    {
        FormatConverter()
        {
            super(ServerConfig.FeedFormat.class);
        }
    }

    /** inline | ring | auto. */
    static final class FeedModeConverter extends LowerCaseEnumConverter<ServerConfig.FeedMode>
    {
        FeedModeConverter()
        {
            super(ServerConfig.FeedMode.class);
        }
    }

    /** auto | io_uring | epoll | nio. */
    static final class IoTransportConverter extends LowerCaseEnumConverter<ServerConfig.IoTransport>
    {
        IoTransportConverter()
        {
            super(ServerConfig.IoTransport.class);
        }
    }

    /** inline | pipeline. */
    static final class ExecutionConverter extends LowerCaseEnumConverter<ServerConfig.Execution>
    {
        ExecutionConverter()
        {
            super(ServerConfig.Execution.class);
        }
    }

    /** scale | forget. */
    static final class PastCapacityConverter extends LowerCaseEnumConverter<ServerConfig.PastCapacity>
    {
        PastCapacityConverter()
        {
            super(ServerConfig.PastCapacity.class);
        }
    }

    /** ddf | redisbloom. */
    static final class LayoutConverter extends LowerCaseEnumConverter<io.ddf.ingest.store.ScalingRegistry.Layout>
    {
        LayoutConverter()
        {
            super(io.ddf.ingest.store.ScalingRegistry.Layout.class);
        }
    }

    /** A window of time: a whole number of seconds, or a duration with its unit (90s, 15m, 24h, 7d). */
    static final class WindowConverter implements ITypeConverter<java.time.Duration>
    {
        @Override
        public java.time.Duration convert(final String value)
        {
            try
            {
                final java.time.Duration window = value.chars().allMatch(c -> c >= '0' && c <= '9') &&
                    !value.isEmpty() ? java.time.Duration.ofSeconds(Long.parseLong(value)) :
                    io.ddf.engine.TimeWindow.parseDuration(value);
                if (window.isZero())
                {
                    throw new TypeConversionException("a window of time is positive, got '" + value + "'");
                }
                return window;
            }
            catch (final IllegalArgumentException e)
            {
                throw new TypeConversionException("expected seconds or a time with its unit (90s, 15m, 24h, 7d): " +
                    e.getMessage());
            }
        }
    }

    /** HOST:PORT. */
    static final class AddressConverter implements ITypeConverter<InetSocketAddress>
    {
        @Override
        public InetSocketAddress convert(final String value)
        {
            final int colon = value.lastIndexOf(':');
            if (colon <= 0 || colon == value.length() - 1)
            {
                throw new TypeConversionException("expected HOST:PORT, got '" + value + "'");
            }
            try
            {
                final int p = Integer.parseInt(value.substring(colon + 1));
                if (p < 1 || p > 65535)
                {
                    throw new NumberFormatException();
                }
                return InetSocketAddress.createUnresolved(value.substring(0, colon), p);
            }
            catch (final NumberFormatException e)
            {
                throw new TypeConversionException("bad port in '" + value + "'");
            }
        }
    }
}
