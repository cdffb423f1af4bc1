package io.ddf.examples.embedder;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Operation;
import io.ddf.engine.Verdict;
import io.ddf.engine.pipeline.FilterPipeline;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pipeline example of docs/embedding.md: hashing and insertion on other threads, the verdicts delivered in
 * publication order to a listener. Streams ids 0..n-1 twice and prints how many were new each time: "n, 0" on a
 * fresh file, "0, 0" once the file remembers them.
 */
public final class PipelineExample
{
    private PipelineExample()
    {
    }

    /**
     * @param args the filter file, and how many ids.
     */
    public static void main(final String[] args)
    {
        final long n = Long.parseLong(args[1]);
        final AtomicLong unseen = new AtomicLong();
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).memoryBits(1L << 24)
                .file(Path.of(args[0])).openOrCreate())
        {
            for (int pass = 0; pass < 2; pass++)
            {
                unseen.set(0);
                try (FilterPipeline pipeline = FilterPipeline.builder()
                        .listener((tag, verdict) -> unseen.addAndGet(verdict == Verdict.UNSEEN ? 1 : 0))
                        .build())
                {
                    for (long id = 0; id < n; id++)
                    {
                        pipeline.publish(filter, Operation.STREAM, id, id); // tag: the id itself
                    }
                } // close() delivers every verdict published, then stops the pipeline's threads
                System.out.print((pass == 0 ? "" : ", ") + unseen.get());
            }
            System.out.println();
        }
    }
}
