package io.ddf.ingest;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;

import java.io.IOException;

/**
 * Streams every record of the input through a filter and writes the verdicts, or only the unseen records.
 *
 * <p>Output is flushed whenever the input has nothing more to read immediately, so interactive and pipelined
 * use sees each answer as soon as its line is in.
 */
final class Pipe
{
    private static final byte DUPLICATE = 'D';
    private static final byte UNSEEN = 'U';

    private final LineReader reader;
    private final LineWriter writer;
    private final boolean unique;

    /**
     * @param reader yields the records.
     * @param writer takes the output.
     * @param unique write the unseen records themselves instead of one verdict per record.
     */
    Pipe(final LineReader reader, final LineWriter writer, final boolean unique)
    {
        this.reader = reader;
        this.writer = writer;
        this.unique = unique;
    }

    /**
     * Runs until the input ends or the guard is closed by a shutdown hook.
     *
     * @param guard guards the filter.
     * @return number of records streamed.
     * @throws IOException when reading or writing fails.
     */
    long run(final FilterGuard guard) throws IOException
    {
        final DuplicateFilter filter = guard.filter();
        long records = 0;
        guard.lock();
        try
        {
            while (guard.isOpen())
            {
                while (reader.next())
                {
                    final Verdict verdict = filter.stream(reader.buffer(), reader.start(), reader.length());
                    write(verdict);
                    records++;
                }
                if (reader.atEnd())
                {
                    writer.flush();
                    break;
                }
                if (!reader.inputReady())
                {
                    writer.flush();
                }
                guard.unlock();
                try
                {
                    reader.fill();
                }
                finally
                {
                    guard.lock();
                }
            }
        }
        finally
        {
            guard.unlock();
        }
        return records;
    }

    private void write(final Verdict verdict) throws IOException
    {
        if (!unique)
        {
            writer.line(verdict == Verdict.DUPLICATE ? DUPLICATE : UNSEEN);
        }
        else if (verdict == Verdict.UNSEEN)
        {
            writer.line(reader.buffer(), reader.start(), reader.length());
        }
    }
}
