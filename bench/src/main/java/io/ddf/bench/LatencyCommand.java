package io.ddf.bench;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code ddf bench latency} (being written). */
@Command(name = "latency", description = "Not implemented yet.")
final class LatencyCommand implements Callable<Integer>
{
    @Override
    public Integer call()
    {
        System.err.println("ddf bench latency: not implemented yet");
        return 2;
    }
}
