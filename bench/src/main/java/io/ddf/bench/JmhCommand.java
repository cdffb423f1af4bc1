package io.ddf.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code ddf bench jmh [JMH options]}: runs the JMH suite with JMH's own command line. */
@Command(name = "jmh", description = "Run the JMH suite; every argument is JMH's (e.g. -l, -f 1 -wi 3 -i 5).")
final class JmhCommand implements Callable<Integer>
{
    /** Everything after {@code jmh}, options included, goes to JMH unparsed. */
    @Unmatched
    private List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception
    {
        org.openjdk.jmh.Main.main(args.toArray(new String[0]));
        return 0;
    }
}
