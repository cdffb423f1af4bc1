package io.ddf.ingest;

import io.ddf.engine.DuplicateFilter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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

    @Option(names = "--unique", description = "Write only the lines judged unseen, instead of verdicts.")
    private boolean unique;

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
        final DuplicateFilter filter = options.builder().singleWriter().openOrCreate();
        final LineWriter writer = new LineWriter(out, WRITE_BUFFER_BYTES);
        try (FilterGuard guard = new FilterGuard(filter, writer, true))
        {
            new Pipe(new LineReader(in, READ_BUFFER_BYTES), writer, unique).run(guard);
        }
        return 0;
    }
}
