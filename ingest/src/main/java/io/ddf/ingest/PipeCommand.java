package io.ddf.ingest;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.LastClose;
import io.ddf.engine.SyncPolicy;
import io.ddf.ingest.config.SyncPolicyConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.Callable;

/** {@code ddf pipe}: one verdict per input line, or with {@code --unique} only the lines not seen before. */
@Command(name = "pipe", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Read lines from stdin and write D (duplicate) or U (unseen) for each, in order.")
public final class PipeCommand implements Callable<Integer>, UsesFilterOptions
{
    /** Initial input buffer; grows for longer lines. */
    static final int READ_BUFFER_BYTES = 1 << 20;
    /** Output buffer. */
    static final int WRITE_BUFFER_BYTES = 1 << 16;

    private final InputStream in;
    private final OutputStream out;

    @Mixin
    private FilterOptions options;

    @Spec
    private CommandSpec spec;

    @Option(names = "--unique", description = "Write only the lines judged unseen, instead of verdicts.")
    private boolean unique;

    @Option(names = "--fsync", paramLabel = "POLICY", converter = SyncPolicyConverter.class,
        description = "With --file: always, everysec (default) or no (README).")
    private SyncPolicy fsync;

    /**
     * @param in  where records are read.
     * @param out where verdicts or records are written.
     */
    public PipeCommand(final InputStream in, final OutputStream out)
    {
        this.in = in;
        this.out = out;
    }

    @Override
    public FilterOptions filterOptions()
    {
        return options;
    }

    /**
     * Opens or creates the filter, streams stdin through it, and closes it.
     *
     * @return exit status 0.
     * @throws IOException when reading or writing fails mid-stream.
     */
    @Override
    public Integer call() throws IOException
    {
        // One thread streams (this one; the shutdown hook only closes): single-writer mode, no locked instruction
        // per record.
        if (fsync != null && options.file() == null)
        {
            throw new ParameterException(spec.commandLine(), "--fsync needs --file: without a file the filter " +
                "lives in memory and is gone at exit, so there is nothing to sync");
        }
        if (options.kind() == null)
        {
            throw new ParameterException(spec.commandLine(), "Missing required option: '--filter=KIND' (or --window " +
                "with a time, e.g. 24h, which means fifo-bloom)");
        }
        if (options.kindParameters().getOrDefault("time-source", 0L).longValue() != 0)
        {
            throw new ParameterException(spec.commandLine(), "--time-source 1 (event time): pipe reads no times " +
                "from its lines, so the window would never move; leave it out (the wall clock)");
        }
        final SyncPolicy policy = fsync == null ? SyncPolicy.DEFAULT : fsync;
        // always: the pipe syncs once per batch of input, before the batch's verdicts leave the buffer (group
        // commit), instead of the engine's once per record; the background thread keeps the header's time fresh.
        final DuplicateFilter filter = options.builder().singleWriter()
            .sync(policy == SyncPolicy.ALWAYS ? SyncPolicy.EVERYSEC : policy).openOrCreate();
        final LastClose last = filter.lastClose();
        if (last.kind() == LastClose.Kind.CRASH || last.kind() == LastClose.Kind.SEAL_MISMATCH)
        {
            // never silently: what a power cut may have taken from the file, before any verdict
            spec.commandLine().getErr().println("ddf: " + options.file() + ": " +
                last.describe(System.currentTimeMillis()));
        }
        filter.timeWindow().filter(w -> w.atOpen().expiredGenerations() > 0).ifPresent(w ->
            // the window's time passed while the file was closed: say what it forgot, before any verdict
            spec.commandLine().getErr().println("ddf: " + options.file() + ": " + w.atOpen().describe()));
        final LineWriter writer = policy == SyncPolicy.ALWAYS ?
            new LineWriter(out, WRITE_BUFFER_BYTES, filter::sync) : new LineWriter(out, WRITE_BUFFER_BYTES);
        try (FilterGuard guard = new FilterGuard(filter, writer, true))
        {
            new Pipe(new LineReader(in, READ_BUFFER_BYTES), writer, unique).run(guard);
        }
        return 0;
    }
}
