package io.ddf.bench.latency;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Prints a latency histogram's summary and writes its percentile distribution as a {@code .hgrm} file. */
public final class Percentiles
{
    /** The .hgrm files hold microseconds (the histograms record nanoseconds). */
    private static final double NANOS_PER_MICRO = 1000.0;

    private Percentiles()
    {
    }

    /**
     * @param label     what was measured.
     * @param histogram values in ns.
     * @return one line: count, p50, p99, p99.9, max and mean in ns.
     */
    public static String summary(final String label, final Histogram histogram)
    {
        return String.format(Locale.ROOT, "%-34s n=%d  p50 %d  p99 %d  p99.9 %d  max %d  mean %.1f (ns)", label,
            histogram.getTotalCount(), histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99),
            histogram.getValueAtPercentile(99.9), histogram.getMaxValue(), histogram.getMean());
    }

    /**
     * @param file      where to write the distribution, in microseconds (HdrHistogram's plotter format).
     * @param histogram values in ns.
     * @throws IOException when the file cannot be written.
     */
    public static void writeHgrm(final Path file, final Histogram histogram) throws IOException
    {
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8))
        {
            histogram.outputPercentileDistribution(out, NANOS_PER_MICRO);
        }
    }
}
