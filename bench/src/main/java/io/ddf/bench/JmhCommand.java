package io.ddf.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code ddf bench jmh [JMH options]}: runs the JMH suite with JMH's own command line. */
@Command(name = "jmh", description = "Run the JMH suite; the arguments are JMH's (e.g. -h, -l, -f 1 -wi 3 -i 5).")
final class JmhCommand implements Callable<Integer>
{
    @Parameters(arity = "0..*", paramLabel = "JMH-ARGS", description = "Arguments for JMH.")
    private List<String> args = List.of();

    @Override
    public Integer call() throws Exception
    {
        org.openjdk.jmh.Main.main(args.toArray(new String[0]));
        return 0;
    }
}
