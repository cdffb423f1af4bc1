package io.ddf.ingest;

import io.ddf.engine.FilterKind;

import java.util.Arrays;
import java.util.stream.Stream;

/**
 * The kinds a command line can build with {@code --filter} and its parameters alone: not the queuing construction, and
 * not aged-cuckoo, which needs a window of time ({@code --window 24h}: {@code PipeWindowTest}).
 */
final class TestKinds
{
    private TestKinds()
    {
    }

    static Stream<FilterKind> streamable()
    {
        return Arrays.stream(FilterKind.values())
            .filter(kind -> kind != FilterKind.QUEUE && kind != FilterKind.AGED_CUCKOO);
    }
}
