package io.ddf.ingest;

import picocli.CommandLine;
import picocli.CommandLine.IFactory;

import java.io.InputStream;
import java.io.OutputStream;

/** Makes picocli's command objects, giving the streaming commands their input and output streams. */
final class CommandFactory implements IFactory
{
    private final IFactory fallback = CommandLine.defaultFactory();
    private final InputStream in;
    private final OutputStream out;

    /**
     * @param in  standard input.
     * @param out standard output.
     */
    CommandFactory(final InputStream in, final OutputStream out)
    {
        this.in = in;
        this.out = out;
    }

    @Override
    public <K> K create(final Class<K> type) throws Exception
    {
        if (type == PipeCommand.class)
        {
            return type.cast(new PipeCommand(in, out));
        }
        return fallback.create(type);
    }
}
