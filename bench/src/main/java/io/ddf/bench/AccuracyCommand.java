package io.ddf.bench;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code ddf bench accuracy} (being written). */
@Command(name = "accuracy", description = "Not implemented yet.")
final class AccuracyCommand implements Callable<Integer>
{
    @Override
    public Integer call()
    {
        System.err.println("ddf bench accuracy: not implemented yet");
        return 2;
    }
}
