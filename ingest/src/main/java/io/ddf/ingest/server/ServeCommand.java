package io.ddf.ingest.server;

import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
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
        "INFO, DEBUG, COMPACT, SCANDUMP, LOADCHUNK) with RedisBloom's semantics and dumps, with Redis's key, connection " +
        "and server commands (DEL, KEYS, SCAN, TYPE, FLUSHALL, MULTI/EXEC, PING, INFO, ...): COMMAND DOCS on a " +
        "running daemon lists every command with its arguments. Each filter is a file <key>.ddf (<key>.ddfs for a " +
        "scaling one) in the data " +
        "directory and survives restarts; SIGTERM drains, flushes and exits 0.",
        "Optionally a raw feed on its own port: records judged in order, one verdict byte (U or D) back per " +
        "record, or with --forward only the unseen records sent on."},
    footer = {"Default port 7379 (not Redis's 6379, so both can run on one machine); default address 127.0.0.1.",
        "A filter made by BF.RESERVE without KIND, or by BF.ADD on a missing key, scales as RedisBloom's (a layer " +
            "of twice the capacity at half the error rate when full; NONSCALING refuses) in RedisBloom's layout " +
            "(--scaling-layout); CF.* make RedisBloom's cuckoo filter.",
        "With --past-capacity forget they are ddf's forgetting filters instead: a fifo-bloom of --default-capacity " +
            "and --default-error-rate, which forgets the oldest past its capacity in fixed memory, and the " +
            "streaming cuckoo filter; BF.EXISTS then answers 0 for an element forgotten. KIND fifo-bloom asks for " +
            "the forgetting filter per key."})
public final class ServeCommand implements Callable<Integer>
{
    /** Exit status when the daemon could not start (a failure while running, as ErrorHandling's). */
    private static final int STARTUP_FAILED = 1;

    @Spec
    private CommandSpec spec;

    @Option(names = "--port", paramLabel = "P", description = "RESP port (default 7379; 0 picks a free one).")
    private int port = ServerConfig.DEFAULT_PORT;

    @Option(names = "--bind", paramLabel = "ADDR", description = "Address to listen on (default 127.0.0.1).")
    private String bind = "127.0.0.1";

    @Option(names = "--data-dir", paramLabel = "DIR", description = "Where the filters live (default ./ddf-data).")
    private Path dataDir = Path.of("ddf-data");

    @Option(names = "--requirepass", paramLabel = "SECRET", description = "Clients must AUTH with this password " +
        "(visible in the process list: prefer --requirepass-file or the DDF_REQUIREPASS environment variable).")
    private String requirePass;

    @Option(names = "--requirepass-file", paramLabel = "FILE",
        description = "Clients must AUTH with the password this file holds (one trailing newline ignored).")
    private Path requirePassFile;

    @Option(names = "--auth-timeout", paramLabel = "SECONDS", description = "With a password, close a connection " +
        "that has not authenticated this long (default 10; 0 never).")
    private int authTimeout = 10;

    @Option(names = "--max-request-bytes", paramLabel = "N",
        description = "Most bytes of arguments in one command (default 67108864); more gets an error and a close.")
    private long maxRequestBytes = 64L * 1024 * 1024;

    @Option(names = "--max-input-bytes", paramLabel = "N", description = "Most bytes of unfinished commands " +
        "buffered across all connections (default 134217728); past it the connection holding the most gets an " +
        "error and is closed.")
    private long maxInputBytes = 128L * 1024 * 1024;

    @Option(names = "--max-clients", paramLabel = "N", description = "Most RESP clients at once (default 10000).")
    private int maxClients = 10_000;

    @Option(names = "--max-filters", paramLabel = "N", description = "Most filters at once; each holds a file " +
        "descriptor (default: the descriptor limit, less a quarter of it up to --max-clients for connections, " +
        "less 64).")
    private Integer maxFilters;

    @Option(names = "--max-bulk-bytes", paramLabel = "N",
        description = "Longest command argument (default 33554432: RedisBloom's 16 MiB dump chunks fit); longer " +
            "closes the connection.")
    private int maxBulkBytes = 32 * 1024 * 1024;

    @Option(names = "--max-item-bytes", paramLabel = "N",
        description = "Longest item or feed record (default 4096; each ring slot holds this many bytes).")
    private int maxItemBytes = 4096;

    @Option(names = "--client-output-limit", paramLabel = "BYTES",
        description = "Disconnect a client whose unsent replies exceed this (default 67108864).")
    private int clientOutputLimit = 64 * 1024 * 1024;

    @Option(names = "--idle-timeout", paramLabel = "SECONDS",
        description = "Close RESP connections idle this long (default 0: never).")
    private int idleTimeout;

    @Option(names = "--default-capacity", paramLabel = "N",
        description = "Capacity of a filter BF.ADD makes for a missing key (default: RedisBloom's 100, growing; " +
            "1000000 with --past-capacity forget: 1.4 MB at 0.01).")
    private Long defaultCapacity;

    @Option(names = "--past-capacity", paramLabel = "scale|forget",
        description = "What a Bloom filter made without KIND does once full: scale (default: grow a layer, as " +
            "RedisBloom; NONSCALING refuses) or forget (ddf's fifo-bloom: fixed memory, the oldest items forgotten).")
    private String pastCapacity = "scale";

    @Option(names = "--scaling-layout", paramLabel = "redisbloom|ddf",
        description = "How a scaling filter is hashed and laid out: redisbloom (default: RedisBloom's own, so " +
            "every answer, false positives included, and every dump is RedisBloom's) or ddf (ddf's own chain).")
    private String scalingLayout = "redisbloom";

    @Option(names = "--default-error-rate", paramLabel = "X",
        description = "Error rate of a filter BF.ADD makes for a missing key (default 0.01).")
    private double defaultErrorRate = 0.01;

    @Option(names = "--ring-size", paramLabel = "N", description = "Pipeline ring slots, a power of two (default 4096).")
    private int ringSize = 4096;

    @Option(names = "--wait-strategy", paramLabel = "S",
        description = "Pipeline handlers' wait: blocking (default), phased, sleeping, yielding, busy-spin.")
    private String waitStrategy;

    /**
     * Half the cores, at least one: with inline execution an event loop does all of a command's work, and the
     * clients, the kernel's network stack and the JIT need the rest. On this 2-core machine one loop beat two with
     * redis-benchmark on the other core: BF.ADD -P 16 1.64x SADD against 1.57x, p99 1.79 ms against 4.47 ms,
     * unpipelined the same (`ROUNDS=6 bench/daemon-vs-redis.sh ddf.jar ddf.jar,--io-threads,1`,
     * bench/results/daemon/2026-11-25-1059.md).
     */
    private static final int DEFAULT_IO_THREADS = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);

    @Option(names = "--io-threads", paramLabel = "N",
        description = "Network event loop threads (default: half the cores, at least 1; here ${DEFAULT-VALUE}).")
    private int ioThreads = DEFAULT_IO_THREADS;

    @Option(names = "--execution", paramLabel = "WHERE", converter = ExecutionConverter.class,
        description = "Where BF.*/CF.* elements are judged: inline (default: by the event loop that read the " +
            "command, as Redis does) or pipeline (copied into the Disruptor ring, judged on its thread, the " +
            "verdicts handed back). The raw feed always uses the pipeline.")
    private ServerConfig.Execution execution = ServerConfig.DEFAULT_EXECUTION;

    @Option(names = "--feed-port", paramLabel = "P", description = "Raw feed port (default: no raw feed).")
    private Integer feedPort;

    @Option(names = "--feed-format", paramLabel = "F", converter = FormatConverter.class,
        description = "lines (newline-delimited) or frames (4-byte big-endian length, then the bytes); default lines.")
    private ServerConfig.FeedFormat feedFormat = ServerConfig.FeedFormat.LINES;

    @Option(names = "--feed-filter", paramLabel = "NAME",
        description = "Filter the raw feed judges against, made with the defaults if missing (default feed).")
    private String feedFilter = "feed";

    @Option(names = "--metrics-port", paramLabel = "P",
        description = "Serve Prometheus metrics on http://ADDR:P/metrics (default: none; 0 picks a free port).")
    private Integer metricsPort;

    @Option(names = "--metrics-bind", paramLabel = "ADDR",
        description = "Address the metrics endpoint listens on (default 127.0.0.1).")
    private String metricsBind = "127.0.0.1";

    @Option(names = "--forward", paramLabel = "HOST:PORT", converter = AddressConverter.class,
        description = "Send the feed's unseen records there (same framing) instead of verdicts.")
    private InetSocketAddress forward;

    /** @return the configuration these options give. */
    ServerConfig config()
    {
        final ServerConfig config = new ServerConfig();
        config.port = port;
        config.bind = bind;
        config.dataDir = dataDir;
        config.requirePass = PasswordSource.resolve(requirePass, requirePassFile, System.getenv(), System.err::println);
        if (authTimeout < 0)
        {
            throw new IllegalArgumentException("--auth-timeout must be 0 or more, got " + authTimeout);
        }
        config.authTimeoutSeconds = authTimeout;
        config.maxRequestBytes = positive(maxRequestBytes, "--max-request-bytes");
        config.maxInputBytes = positive(maxInputBytes, "--max-input-bytes");
        if (config.maxInputBytes < config.maxRequestBytes)
        {
            throw new IllegalArgumentException("--max-input-bytes (" + maxInputBytes + ") must be at least " +
                "--max-request-bytes (" + maxRequestBytes + "), or no command of that size could ever be read");
        }
        config.maxClients = positive(maxClients, "--max-clients");
        config.maxFilters = maxFilters != null ? positive(maxFilters, "--max-filters") :
            FilterBudget.defaultMaxFilters(FilterBudget.descriptorLimit(), config.maxClients);
        config.maxBulkBytes = positive(maxBulkBytes, "--max-bulk-bytes");
        config.maxItemBytes = positive(maxItemBytes, "--max-item-bytes");
        config.clientOutputLimit = positive(clientOutputLimit, "--client-output-limit");
        if (idleTimeout < 0)
        {
            throw new IllegalArgumentException("--idle-timeout must be 0 or more, got " + idleTimeout);
        }
        config.idleTimeoutSeconds = idleTimeout;
        config.defaultCapacityGiven = defaultCapacity != null;
        config.defaultCapacity = defaultCapacity != null ? defaultCapacity : ServerConfig.DEFAULT_CAPACITY;
        config.redisBloomLayout = switch (scalingLayout.toLowerCase(java.util.Locale.ROOT))
        {
            case "redisbloom" -> true;
            case "ddf" -> false;
            default -> throw new IllegalArgumentException("--scaling-layout must be redisbloom or ddf, not '" +
                scalingLayout + "'");
        };
        config.pastCapacity = switch (pastCapacity.toLowerCase(java.util.Locale.ROOT))
        {
            case "scale" -> ServerConfig.PastCapacity.SCALE;
            case "forget" -> ServerConfig.PastCapacity.FORGET;
            default -> throw new IllegalArgumentException("--past-capacity must be scale or forget, not '" +
                pastCapacity + "'");
        };
        config.defaultErrorRate = defaultErrorRate;
        config.ringSize = positive(ringSize, "--ring-size");
        if (waitStrategy != null)
        {
            config.waitStrategy = waitStrategy;
        }
        config.ioThreads = positive(ioThreads, "--io-threads");
        config.execution = execution;
        config.feedPort = feedPort == null ? -1 : feedPort;
        config.feedFormat = feedFormat;
        config.feedFilter = new String(feedFilter.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        config.forward = forward;
        if (metricsPort != null && (metricsPort < 0 || metricsPort > 65535))
        {
            throw new IllegalArgumentException("--metrics-port must be 0 to 65535, got " + metricsPort);
        }
        config.metricsPort = metricsPort == null ? -1 : metricsPort;
        config.metricsBind = metricsBind;
        if (forward != null && feedPort == null)
        {
            throw new IllegalArgumentException("--forward needs --feed-port");
        }
        return config;
    }

    private static long positive(final long value, final String option)
    {
        if (value < 1)
        {
            throw new IllegalArgumentException(option + " must be at least 1, got " + value);
        }
        return value;
    }

    private static int positive(final int value, final String option)
    {
        if (value < 1)
        {
            throw new IllegalArgumentException(option + " must be at least 1, got " + value);
        }
        return value;
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

    /** inline | pipeline. */
    static final class ExecutionConverter extends LowerCaseEnumConverter<ServerConfig.Execution>
    {
        ExecutionConverter()
        {
            super(ServerConfig.Execution.class);
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
